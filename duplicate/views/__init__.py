"""The duplicate sessions' pages, one module a screen; duplicate/urls.py names each view by its module."""
