"""What gunicorn runs besides the app: its worker class, server hooks and JSON logger."""
