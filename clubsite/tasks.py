from celery import shared_task


@shared_task(ignore_result=False)  # its caller waits for the answer
def ping(x: int) -> int:
    """Answer x + 1: proves that a task goes through the broker to a worker and back."""
    return x + 1
