"""The notifications' tasks: the beat's look for new events, and one delivery's try."""

from accounts.models import User
from core.celery import enqueue, house_task, send

from notifications import services


@house_task(queue="maintenance")
def notice_events() -> None:
    """Record the new events (:func:`notifications.services.notice_all`) and send their
    deliveries; send again the deliveries due whose message was lost."""
    for pk in services.notice_all():
        enqueue(deliver_notification, delivery_pk=pk)
    for pk in services.due():
        enqueue(deliver_notification, delivery_pk=pk)


@house_task(queue="maintenance", time_limit=5 * 60)
def deliver_notification(*, delivery_pk: int) -> None:
    wait = services.deliver(delivery_pk)
    if wait is not None:
        send(deliver_notification, countdown=wait, delivery_pk=delivery_pk)


def send_test(user_pk: int) -> list[int]:
    """The "send a test" button: a test event to the user's ways, sent once this commits."""
    made = services.send_test(User.objects.get(pk=user_pk))
    for pk in made:
        enqueue(deliver_notification, delivery_pk=pk)
    return made
