"""Optional rules: the framework (``framework/``) and one plugin per implemented rule."""
