"""Layer session: replaying a transcript frame by frame (spec 8.4-8.6, 10)."""
