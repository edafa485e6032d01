#!/bin/sh
# One image, several roles: web (gunicorn), worker-matches, worker-validation, beat, or any
# manage.py command ("manage migrate", "manage load_demo"). A worker takes from the first of its
# queues that has a task: people's tables and ratings before the league (core.celery.QUEUES).
set -eu
cd /app/platform

case "${1:-web}" in
    web)
        python manage.py migrate --noinput
        # Threaded workers (NIMMT_WEB_WORKERS, NIMMT_WEB_THREADS) and the proxies whose
        # X-Forwarded-* headers are believed (NIMMT_TRUSTED_PROXIES): see config/gunicorn.py.
        exec gunicorn --config python:config.gunicorn config.wsgi --bind 0.0.0.0:8000 \
            --access-logfile -
        ;;
    worker-matches)
        exec celery -A config worker -Q ratings,tables,challenges,matches,maintenance \
            --concurrency "${NIMMT_MATCH_CONCURRENCY:-2}" -n "matches@%h" -l INFO
        ;;
    worker-validation)
        exec celery -A config worker -Q validation \
            --concurrency "${NIMMT_VALIDATION_CONCURRENCY:-1}" -n "validation@%h" -l INFO
        ;;
    beat)
        exec celery -A config beat -s /data/var/celerybeat-schedule --pidfile= -l INFO
        ;;
    manage)
        shift
        exec python manage.py "$@"
        ;;
    *)
        exec "$@"
        ;;
esac
