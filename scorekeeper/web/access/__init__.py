"""Who may do what, and where: the group a request is in (``groupspace``), its database, the
phone and its rights, a hosted box's rules and the security headers. Imports no other room."""
