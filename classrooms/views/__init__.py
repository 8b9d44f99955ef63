"""Class pages: the teacher's classes and roster, the student's join flow and class page.

Thin adapters: parse the request, find the class through a selector (a
teacher only ever reaches their own classes), call one service, redirect with
a message. Refusals come back as :class:`ClassroomError` and change nothing.

One module per job: ``classes`` (the list, the class page, its settings and
games), ``invitations`` (co-teachers), ``roster`` (names and waiting joins),
``joining`` (the student's join flow), ``common`` (what they share).
"""
