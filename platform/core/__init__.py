"""What every app of the site shares: the house Celery task decorator, work leases, page basics."""
