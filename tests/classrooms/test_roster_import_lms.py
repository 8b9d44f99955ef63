"""Issue 37 §3: the LMS roster (NRPS) enters the class through the classrooms
services -- the member cap, claim codes, a teacher's typed entry linked, not
doubled -- never by writing memberships itself."""

import pytest

from classrooms import services
from classrooms.models import Membership
from lti import nrps
from lti.models import Course, Deployment, Platform
from tests.classrooms import factories

pytestmark = pytest.mark.django_db
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"


@pytest.fixture
def course(teacher):
    classroom = factories.make_class(teacher, name="6.A", roster="Adam Kovář")
    platform = Platform.objects.create(
        issuer="https://lms.example",
        client_id="matika",
        authorization_endpoint="https://lms.example/auth",
        token_endpoint="https://lms.example/token",
        jwks_uri="https://lms.example/jwks",
    )
    deployment = Deployment.objects.create(platform=platform, deployment_id="1")
    return Course.objects.create(deployment=deployment, context_id="c1", classroom=classroom)


def _learner(user_id: str, name: str) -> dict:
    return {"user_id": user_id, "name": name, "roles": [LEARNER], "status": "Active"}


def test_lms_learners_get_claim_codes_and_a_typed_entry_is_linked_not_doubled(course):
    changed = nrps.apply_members(
        course, [_learner("u1", "Adam Kovář"), _learner("u2", "Bára Nová")]
    )
    assert changed == 2
    members = {m.roster_name: m for m in course.classroom.members.all()}
    assert sorted(members) == ["Adam Kovář", "Bára Nová"]
    assert members["Adam Kovář"].source_id == "lti:u1"
    assert all(m.claim_code for m in members.values())
    assert nrps.apply_members(course, [_learner("u2", "Bára Nová")]) == 0


def test_lms_sync_never_passes_the_member_cap(course, monkeypatch):
    monkeypatch.setattr(services, "MAX_MEMBERS", 3)
    learners = [_learner(f"u{i}", f"Žák {chr(65 + i)}") for i in range(5)]
    nrps.apply_members(course, learners)
    assert course.classroom.members.count() == 3
    assert Membership.objects.filter(classroom=course.classroom, source_id="lti:u4").count() == 0


def test_two_learners_with_one_name_stay_two_entries(course):
    nrps.apply_members(course, [_learner("u7", "Eva Malá"), _learner("u8", "Eva Malá")])
    names = sorted(course.classroom.members.values_list("roster_name", flat=True))
    assert names == ["Adam Kovář", "Eva Malá", "Eva Malá (2)"]
