"""The site's own pages, one module a concern (accounts, tokens, progress, invitations, clubs, errors);
clubsite/urls.py names each view by its module."""
