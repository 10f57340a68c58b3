"""fluxx-judge's Textual app: rebuild a table, replay a dispute, read the rulings."""
