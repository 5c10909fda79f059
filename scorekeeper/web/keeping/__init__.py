"""Answers made at a cost, kept or bounded: the printing queue and printed answers, the sheets
made ahead, the charts drawn, kept fragments and validated pages, the work limited while it runs. Imports ``access`` and ``making``."""
