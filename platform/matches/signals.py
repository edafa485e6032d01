"""What the match pipeline tells the apps built on it (tournaments), which it does not know.

:data:`match_ended` is sent by the pipeline's tasks (:mod:`matches.tasks`) once the end of a
match is committed: played and stored, or given up for good. A receiver gets ``match`` (the
:class:`~matches.models.Match`) and enqueues its own follow-up; the tournaments app listens to
move its tournament on.
"""

from django.dispatch import Signal

match_ended = Signal()
