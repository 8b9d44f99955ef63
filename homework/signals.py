"""What other apps may listen to, so homework never imports them.

``attempt_finished`` is sent after the transaction that finished an attempt
commits, with ``attempt_id`` (an ``Attempt`` primary key) and ``lms_linked``
(``Assignment.lms_linked``: whether an LMS gradebook links to the homework). A
grade-passback listener (the LTI tool) reads the attempt and the assignment's
counting policy itself when it is linked; homework knows nothing of who listens.

``grading_changed`` is sent after a teacher changed how scores become grades
(full marks, marks from scores), with ``assignment_id``: a listener sends every
pupil's grade again.
"""

from django.dispatch import Signal

attempt_finished = Signal()
grading_changed = Signal()
