"""LTI 1.3 Advantage tool: Moodle, Canvas and other LMSs launch Matika (docs/lti.md)."""
