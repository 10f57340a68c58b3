"""The app's screens, one per concern: table, replay, rulings, interactions, help."""
