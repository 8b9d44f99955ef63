"""REST API of homework for the class's teachers (docs/api.md "Homework").

Only the class's teacher and its accepted co-teachers reach an assignment:
anyone else gets 404 (a logged-in teacher of another class) or 403 (not
logged in: a pupil's browser, an anonymous visitor); nothing changes for them.
Refusals are ``{"code", "message"}`` with a stable code; nothing is created or
changed on bad input.
"""

from typing import Any, cast

from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from classrooms import selectors as class_selectors
from classrooms.api import ClassroomErrorMixin, ErrorSerializer
from classrooms.models import Classroom

from . import exports, selectors, services
from .errors import HomeworkError
from .models import Assignment


class HomeworkErrorMixin(ClassroomErrorMixin):
    permission_classes = [IsAuthenticated]
    refusal = HomeworkError


class SettingsField(serializers.JSONField):
    """The game's own settings (e.g. a table, a difficulty, seconds per card)."""


class AssignmentSerializer(serializers.ModelSerializer[Assignment]):
    class_id = serializers.IntegerField(source="classroom_id", read_only=True)
    state = serializers.SerializerMethodField(
        help_text="scheduled (not open yet), open, late (past the deadline, late play "
        "allowed) or closed."
    )
    results_url = serializers.SerializerMethodField()
    full_marks_default = serializers.SerializerMethodField(
        help_text="The game's default full marks for these settings (used while full_marks "
        "is null)."
    )

    class Meta:
        model = Assignment
        fields = [
            "id",
            "class_id",
            "game",
            "title",
            "settings",
            "opens_at",
            "due_at",
            "attempts",
            "late",
            "table_visible",
            "practice",
            "reviews_visible",
            "mail_summary",
            "mark_thresholds",
            "full_marks",
            "full_marks_default",
            "time_zone",
            "closed_at",
            "created_at",
            "state",
            "results_url",
        ]
        read_only_fields = fields

    def get_state(self, assignment: Assignment) -> str:
        return selectors.state(assignment)

    def get_full_marks_default(self, assignment: Assignment) -> int:
        return selectors.full_marks(Assignment(game=assignment.game, settings=assignment.settings))

    def get_results_url(self, assignment: Assignment) -> str:
        url: str = reverse("homework_api:results", args=[assignment.pk])
        return url


class AssignmentCreateSerializer(serializers.Serializer[Any]):
    game = serializers.CharField(max_length=16)
    title = serializers.CharField(max_length=200, allow_blank=True)
    settings = SettingsField(required=False, default=dict)
    opens_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    due_at = serializers.DateTimeField()
    attempts = serializers.ChoiceField(
        choices=Assignment.Attempts.choices, default=Assignment.Attempts.FIRST
    )
    late = serializers.BooleanField(default=False)
    table_visible = serializers.BooleanField(default=False)
    practice = serializers.BooleanField(default=False)
    reviews_visible = serializers.BooleanField(default=False)
    mail_summary = serializers.BooleanField(default=False)
    mark_thresholds = serializers.JSONField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Lowest score for the marks 1, 2, 3 and 4 (falling); below is 5.",
    )
    full_marks = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The score that counts as full marks in the LMS gradebook (1 to 1000000); "
        "null: the game's default (full_marks_default).",
    )
    time_zone = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=64,
        help_text="IANA time zone the teacher's pages show the dates in (empty: "
        "Europe/Prague); the dates themselves are ISO-8601 with an offset, stored in UTC.",
    )


class AssignmentUpdateSerializer(AssignmentCreateSerializer):
    """Every field optional; after opening only title, due_at, late and what
    pupils see may change (``already_open`` otherwise)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False
            field.default = serializers.empty


class RowSerializer(serializers.Serializer[Any]):
    member = serializers.IntegerField(source="member_id")
    roster_name = serializers.CharField()
    status = serializers.ChoiceField(choices=selectors.STATUSES)
    score = serializers.IntegerField(allow_null=True)
    attempts = serializers.IntegerField(help_text="Games started, practice included.")
    time_spent_s = serializers.FloatField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    mark = serializers.IntegerField(allow_null=True)
    review_url = serializers.CharField(allow_null=True)


class ResultsSerializer(serializers.Serializer[Any]):
    assignment = AssignmentSerializer()
    average = serializers.FloatField(allow_null=True)
    rows = RowSerializer(many=True)


def _teacher_class(request: Request, pk: int) -> Classroom:
    return class_selectors.teacher_classroom(request.user, pk)


class AssignmentList(HomeworkErrorMixin, APIView):
    @extend_schema(responses=AssignmentSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        classroom = _teacher_class(request, pk)
        return Response(
            AssignmentSerializer(selectors.class_assignments(classroom), many=True).data
        )

    @extend_schema(
        request=AssignmentCreateSerializer,
        responses={201: AssignmentSerializer, 400: ErrorSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        classroom = _teacher_class(request, pk)
        payload = AssignmentCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        assignment = services.create_assignment(
            classroom=classroom,
            user=cast(User, request.user),  # IsAuthenticated: a signed-in account
            language=get_language() or "",
            **payload.validated_data,
        )
        return Response(AssignmentSerializer(assignment).data, status=status.HTTP_201_CREATED)


class AssignmentDetail(HomeworkErrorMixin, APIView):
    @extend_schema(responses=AssignmentSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(AssignmentSerializer(selectors.teacher_assignment(request.user, pk)).data)

    @extend_schema(
        request=AssignmentUpdateSerializer,
        responses={200: AssignmentSerializer, 400: ErrorSerializer, 409: ErrorSerializer},
    )
    def patch(self, request: Request, pk: int) -> Response:
        assignment = selectors.teacher_assignment(request.user, pk)
        payload = AssignmentUpdateSerializer(data=request.data, partial=True)
        payload.is_valid(raise_exception=True)
        changes = dict(payload.validated_data)
        if isinstance(request.data, dict) and request.data.get("closed") is True:
            assignment = services.close_assignment(assignment_id=assignment.pk)
        if changes:
            assignment = services.update_assignment(assignment_id=assignment.pk, changes=changes)
        return Response(AssignmentSerializer(assignment).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        assignment = selectors.teacher_assignment(request.user, pk)
        services.delete_assignment(assignment_id=assignment.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AssignmentClose(HomeworkErrorMixin, APIView):
    @extend_schema(request=None, responses=AssignmentSerializer)
    def post(self, request: Request, pk: int) -> Response:
        assignment = selectors.teacher_assignment(request.user, pk)
        return Response(
            AssignmentSerializer(services.close_assignment(assignment_id=assignment.pk)).data
        )


def _rows(assignment: Assignment) -> dict[str, Any]:
    table = selectors.results(assignment)
    for row in table["rows"]:
        row.extra["review_url"] = (
            reverse(
                "homework:review",
                args=[assignment.classroom_id, assignment.pk, row.attempt_id],
            )
            if row.attempt_id
            else None
        )
    return table


class Results(HomeworkErrorMixin, APIView):
    @extend_schema(responses=ResultsSerializer)
    def get(self, request: Request, pk: int) -> Response:
        assignment = selectors.teacher_assignment(request.user, pk)
        table = _rows(assignment)
        rows = [{**vars(row), "review_url": row.extra["review_url"]} for row in table["rows"]]
        return Response(
            ResultsSerializer(
                {"assignment": assignment, "average": table["average"], "rows": rows}
            ).data
        )


class ResultsFile(HomeworkErrorMixin, APIView):
    fmt = "csv"

    @extend_schema(
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY),
            (200, exports.XLSX_TYPE): OpenApiResponse(OpenApiTypes.BINARY),
        }
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        assignment = selectors.teacher_assignment(request.user, pk)
        return exports.results_file(assignment, self.fmt)
