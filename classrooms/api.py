"""REST API for teachers: classes, members, game sessions and results.

The same selectors as the pages decide what a teacher can reach (their own
classes and those they co-teach; anything else is 404), and the same services
do every write. Refusals are ``400 {"code": ..., "message": ...}``.
"""

from typing import TYPE_CHECKING, Any, cast

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import NotAuthenticated, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from classrooms import selectors, services
from classrooms.errors import ClassroomError
from classrooms.models import Classroom, Membership
from core.errors import DomainError


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()

    def get_fields(self) -> dict[str, serializers.Field]:
        # the answer's "fields" key: declared here, as a class attribute it would
        # shadow the serializer's own ``fields``
        fields = super().get_fields()
        fields["fields"] = serializers.DictField(
            required=False, help_text="Per-field problems, if any."
        )
        return fields


if TYPE_CHECKING:  # the mixin's super() is the API view it is mixed into
    from rest_framework.views import APIView as _ViewBase
else:
    _ViewBase = object


class ClassroomErrorMixin(_ViewBase):
    """Every refusal as ``{"code", "message"}`` (plus ``fields`` for bad input);
    ``refusal``: the app's own refusals (each with ``code``, ``message`` and
    ``status``) answered with their status; homework's mixin names its own."""

    refusal: type[Exception] = ClassroomError

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, self.refusal):
            # 400, or the refusal's own status (403 ``email_unverified``, 429)
            refused = cast(DomainError, exc)  # or HomeworkError: the same three fields
            return Response(
                {"code": refused.code, "message": refused.message}, status=refused.status
            )
        response = super().handle_exception(exc)
        if isinstance(exc, ValidationError):
            response.data = {
                "code": "invalid",
                "message": _("Some values are missing or not valid."),
                "fields": response.data,
            }
        elif isinstance(response.data, dict) and "detail" in response.data:
            detail = response.data["detail"]
            response.data = {"code": getattr(detail, "code", "error"), "message": str(detail)}
        return response

    def teacher(self) -> User:
        """The signed-in account asking (``IsAuthenticated``, the API's default
        permission, lets no one else through)."""
        user = self.request.user
        if not user.is_authenticated:
            raise NotAuthenticated
        return user


class ClassroomSerializer(serializers.ModelSerializer):
    teacher = serializers.CharField(source="teacher.get_full_name", read_only=True)
    is_owner = serializers.SerializerMethodField()
    join_url = serializers.SerializerMethodField()
    member_count = serializers.SerializerMethodField()
    roster = serializers.CharField(
        write_only=True, required=False, allow_blank=True, help_text="Names, one a line."
    )

    class Meta:
        model = Classroom
        fields = [
            "id",
            "name",
            "school_year",
            "subject",
            "teacher",
            "is_owner",
            "join_code",
            "join_url",
            "join_enabled",
            "public_publication",
            "archived_at",
            "created_at",
            "member_count",
            "roster",
        ]
        read_only_fields = ["join_code", "archived_at", "created_at"]

    def get_is_owner(self, classroom: Classroom) -> bool:
        return classroom.teacher_id == self.context["request"].user.pk

    def get_join_url(self, classroom: Classroom) -> str:
        from classrooms.views.common import join_url  # the keyed class link, as on the class page

        return join_url(self.context["request"], classroom)

    def get_member_count(self, classroom: Classroom) -> int:
        return classroom.members.filter(status=Membership.Status.APPROVED).count()


class ClassroomUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(required=False, max_length=80)
    school_year = serializers.CharField(required=False, allow_blank=True, max_length=9)
    subject = serializers.CharField(required=False, allow_blank=True, max_length=80)
    public_publication = serializers.BooleanField(required=False)
    join_enabled = serializers.BooleanField(required=False)
    archived = serializers.BooleanField(required=False)


class MemberSerializer(serializers.ModelSerializer):
    nickname = serializers.SerializerMethodField()
    joined = serializers.SerializerMethodField()

    class Meta:
        model = Membership
        fields = ["id", "roster_name", "nickname", "status", "joined", "joined_at"]
        read_only_fields = ["status", "joined_at"]

    def get_nickname(self, member: Membership) -> str | None:
        return member.player.display_name if member.player else None

    def get_joined(self, member: Membership) -> bool:
        return member.player_id is not None


class MemberCreateSerializer(serializers.Serializer):
    names = serializers.ListField(child=serializers.CharField(max_length=80), min_length=1)


class MemberUpdateSerializer(serializers.Serializer):
    roster_name = serializers.CharField(required=False, max_length=80)
    approve = serializers.BooleanField(required=False)


class SessionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    mode = serializers.CharField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    player_count = serializers.IntegerField()
    average_score = serializers.FloatField(allow_null=True)
    best_score = serializers.IntegerField(allow_null=True)


class RankingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    member_id = serializers.IntegerField(source="member.pk", allow_null=True, default=None)
    roster_name = serializers.CharField()
    nickname = serializers.CharField()
    score = serializers.IntegerField(source="result.score")
    completed = serializers.BooleanField(source="result.completed")
    details = serializers.JSONField(source="result.details")


class SessionDetailSerializer(SessionSerializer):
    ranking = RankingRowSerializer(many=True)


class HistoryRowSerializer(serializers.Serializer):
    session_id = serializers.IntegerField(source="record.pk")
    game = serializers.CharField(source="record.game")
    mode = serializers.CharField(source="record.mode")
    started_at = serializers.DateTimeField(source="record.started_at")
    rank = serializers.IntegerField(source="result.rank", allow_null=True)
    players = serializers.IntegerField(source="player_count")
    score = serializers.IntegerField(source="result.score")


class HistorySerializer(serializers.Serializer):
    games = serializers.IntegerField()
    average = serializers.FloatField(allow_null=True)
    best = serializers.IntegerField(allow_null=True)
    rows = HistoryRowSerializer(many=True)


class ParticipationSerializer(serializers.Serializer):
    member_id = serializers.IntegerField(source="member.pk")
    roster_name = serializers.CharField(source="member.roster_name")
    games = serializers.IntegerField()
    average = serializers.FloatField(allow_null=True)
    best = serializers.IntegerField(allow_null=True)
    last_played = serializers.DateTimeField(allow_null=True)


class TeacherClassMixin(ClassroomErrorMixin):
    permission_classes = [IsAuthenticated]

    def get_classroom(self) -> Classroom:
        return selectors.teacher_classroom(self.request.user, self.kwargs["pk"])


# --- classes ---------------------------------------------------------------------


class ClassroomList(ClassroomErrorMixin, generics.ListCreateAPIView):
    serializer_class = ClassroomSerializer

    def get_queryset(self) -> QuerySet:
        return selectors.classes_for_teacher(self.request.user).order_by("-created_at", "-pk")

    def perform_create(self, serializer: serializers.BaseSerializer[Any]) -> None:
        data = serializer.validated_data
        serializer.instance = services.create_classroom(
            teacher=self.teacher(),
            name=data["name"],
            school_year=data.get("school_year", ""),
            subject=data.get("subject", ""),
            roster=data.get("roster", ""),
        )


class ClassroomDetail(TeacherClassMixin, APIView):
    @extend_schema(responses=ClassroomSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(
            ClassroomSerializer(self.get_classroom(), context={"request": request}).data
        )

    @extend_schema(
        request=ClassroomUpdateSerializer,
        responses={200: ClassroomSerializer, 400: ErrorSerializer},
    )
    def patch(self, request: Request, pk: int) -> Response:
        classroom = self.get_classroom()
        update = ClassroomUpdateSerializer(data=request.data)
        update.is_valid(raise_exception=True)
        data = update.validated_data
        if {"name", "school_year", "subject", "public_publication"} & data.keys():
            classroom = services.update_classroom(
                classroom=classroom,
                name=data.get("name", classroom.name),
                school_year=data.get("school_year", classroom.school_year),
                subject=data.get("subject", classroom.subject),
                public_publication=data.get("public_publication", classroom.public_publication),
                user=self.teacher(),
            )
        if "join_enabled" in data:
            classroom = services.set_joining(classroom=classroom, enabled=data["join_enabled"])
        if "archived" in data:
            classroom = services.set_archived(classroom=classroom, archived=data["archived"])
        return Response(ClassroomSerializer(classroom, context={"request": request}).data)

    @extend_schema(responses={204: None, 400: ErrorSerializer})
    def delete(self, request: Request, pk: int) -> Response:
        services.delete_classroom(classroom=self.get_classroom(), user=self.teacher())
        return Response(status=status.HTTP_204_NO_CONTENT)


class RegenerateCode(TeacherClassMixin, APIView):
    @extend_schema(request=None, responses=ClassroomSerializer)
    def post(self, request: Request, pk: int) -> Response:
        classroom = services.regenerate_code(classroom=self.get_classroom())
        return Response(ClassroomSerializer(classroom, context={"request": request}).data)


# --- members ---------------------------------------------------------------------


class MemberList(TeacherClassMixin, APIView):
    @extend_schema(responses=MemberSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        members = selectors.in_roster_order(selectors.roster(self.get_classroom()))
        return Response(MemberSerializer(members, many=True).data)

    @extend_schema(
        request=MemberCreateSerializer,
        responses={201: MemberSerializer(many=True), 400: ErrorSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        classroom = self.get_classroom()
        payload = MemberCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        added = services.add_roster(
            classroom=classroom, text="\n".join(payload.validated_data["names"])
        )
        return Response(MemberSerializer(added, many=True).data, status=status.HTTP_201_CREATED)


def _member(classroom: Classroom, member_id: int) -> Membership:
    member = selectors.roster(classroom).filter(pk=member_id).first()
    if member is None:
        raise Http404("No such member.")
    return member


class MemberDetail(TeacherClassMixin, APIView):
    def get_member(self, classroom: Classroom) -> Membership:
        return _member(classroom, self.kwargs["member_id"])

    @extend_schema(responses=MemberSerializer)
    def get(self, request: Request, pk: int, member_id: int) -> Response:
        return Response(MemberSerializer(self.get_member(self.get_classroom())).data)

    @extend_schema(
        request=MemberUpdateSerializer, responses={200: MemberSerializer, 400: ErrorSerializer}
    )
    def patch(self, request: Request, pk: int, member_id: int) -> Response:
        classroom = self.get_classroom()
        member = self.get_member(classroom)
        payload = MemberUpdateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        if "roster_name" in data:
            member = services.rename_member(
                classroom=classroom, member_id=member.pk, roster_name=data["roster_name"]
            )
        if data.get("approve"):
            member = services.approve_member(classroom=classroom, member_id=member.pk)
        return Response(MemberSerializer(self.get_member(classroom)).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, pk: int, member_id: int) -> Response:
        classroom = self.get_classroom()
        services.remove_member(classroom=classroom, member_id=self.get_member(classroom).pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MemberResults(TeacherClassMixin, APIView):
    @extend_schema(responses=HistorySerializer)
    def get(self, request: Request, pk: int, member_id: int) -> Response:
        history = selectors.member_history(_member(self.get_classroom(), member_id))
        return Response(HistorySerializer(history).data)


class Participation(TeacherClassMixin, APIView):
    @extend_schema(responses=ParticipationSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        rows = selectors.participation(self.get_classroom())
        return Response(ParticipationSerializer(rows, many=True).data)


# --- sessions --------------------------------------------------------------------


class SessionList(TeacherClassMixin, APIView):
    @extend_schema(responses=SessionSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        sessions = selectors.class_sessions(self.get_classroom())
        return Response(SessionSerializer(sessions, many=True).data)


class SessionDetail(TeacherClassMixin, APIView):
    @extend_schema(responses=SessionDetailSerializer)
    def get(self, request: Request, pk: int, session_id: int) -> Response:
        classroom = self.get_classroom()
        record = selectors.class_session(classroom, session_id)
        ranking = selectors.session_ranking(classroom, record)
        # SessionDetailSerializer's answer: the session's fields, then its ranking
        ranking_data = RankingRowSerializer(ranking, many=True).data
        return Response({**SessionSerializer(record).data, "ranking": ranking_data})
