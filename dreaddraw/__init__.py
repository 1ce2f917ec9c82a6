"""Dread Draw, the push-your-luck card game: its card set, pure engine and bots, tables and tournaments."""
