"""Write operations on classes."""

import secrets

from classrooms.models import Classroom

# Class codes share the profile codes' alphabet: no 0/O or 1/I/L to misread.
CLASS_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CLASS_CODE_LENGTH = 6


def new_class_code() -> str:
    while True:
        code = "".join(secrets.choice(CLASS_CODE_ALPHABET) for _ in range(CLASS_CODE_LENGTH))
        if not Classroom.objects.filter(join_code=code).exists():
            return code
