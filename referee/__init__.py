"""referee: a rules assistant and referee for board games played at a real table."""

__version__ = "0.1.0"
