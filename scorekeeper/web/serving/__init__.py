"""Running the server: its processes, its stop, its log and its figures. Imports the rooms
below it, never the pages."""
