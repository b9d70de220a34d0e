"""Egyptian Ratscrew: face-card challenges and real-time slaps (see ``rules.py``)."""
