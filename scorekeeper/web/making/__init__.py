"""What pages are made of: language and words, forms and their fields, what a page says and
shows, error pages and the assets sent. Imports ``access`` only."""
