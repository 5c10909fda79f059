"""The pages: one blueprint per feature."""
