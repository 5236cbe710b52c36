"""Following the oven pile as it is flipped, frame by frame.

- :class:`vision.track.tracker.FlipTracker`: the pure, incremental tracker
  (``feed(frame, time) -> [Landing]``, ``finish()``);
- :mod:`vision.track.factory`: the tracker over the photo recogniser;
- :mod:`vision.track.sources`: video files, frame folders, a webcam;
- :mod:`vision.track.narrate`: JSON, words and the engine's verdicts for
  ``mamma-mia scan --sequence / --camera``.
"""
