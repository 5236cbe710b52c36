"""The product's recogniser and tracker as benchmark plug-ins."""
