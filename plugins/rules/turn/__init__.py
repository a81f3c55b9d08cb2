"""Turn structure: initiative, impulses, weather, action choice, activity limits.

The activity-limit API other plugins call lives in ``activities.py``.
"""
