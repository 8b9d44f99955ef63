"""Kubernetes trusts forwarded addresses only from the ingress (issue 27 §5):
"the Kubernetes config should trust forwarded addresses only from the ingress,
not the whole pod network". uvicorn trusts ``X-Forwarded-For`` from
``FORWARDED_ALLOW_IPS``, which has to be the pod network (the controller's pods
have no fixed addresses); the shipped NetworkPolicy must therefore let no pod
but the ingress controller's (and Prometheus') reach the web pods."""

from __future__ import annotations

import ipaddress

from tests.production import shipped


def _web_pod_labels() -> dict[str, str]:
    (web,) = [
        doc
        for doc in shipped.k8s_documents()
        if doc["kind"] == "Deployment" and doc["metadata"]["name"] == "matika-web"
    ]
    return web["spec"]["template"]["metadata"]["labels"]


def _policies_for_web() -> list[dict]:
    labels = _web_pod_labels()
    return [
        doc
        for doc in shipped.k8s_documents()
        if doc["kind"] == "NetworkPolicy"
        and all(labels.get(k) == v for k, v in doc["spec"]["podSelector"]["matchLabels"].items())
    ]


def _forwarded_allow_ips() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    (config,) = [
        doc
        for doc in shipped.k8s_documents()
        if doc["kind"] == "ConfigMap" and "FORWARDED_ALLOW_IPS" in doc.get("data", {})
    ]
    value = config["data"]["FORWARDED_ALLOW_IPS"]
    assert "*" not in value
    return [ipaddress.ip_network(part.strip(), strict=False) for part in value.split(",")]


def test_a_network_policy_guards_the_web_pods_for_ingress():
    policies = _policies_for_web()
    assert policies, "no NetworkPolicy selects the web pods"
    for policy in policies:
        assert "Ingress" in policy["spec"]["policyTypes"]


def test_only_the_ingress_controller_and_prometheus_reach_the_web_pods():
    peers = []
    for policy in _policies_for_web():
        for rule in policy["spec"].get("ingress", []):
            # a rule without "from" admits every source
            assert rule.get("from"), "an ingress rule open to every pod"
            peers.extend(rule["from"])
    names = set()
    for peer in peers:
        # both selectors in one peer (AND): a namespace selector alone admits
        # every pod of the namespace, a pod selector alone those of our namespace
        assert set(peer) == {"namespaceSelector", "podSelector"}, peer
        assert peer["namespaceSelector"]["matchLabels"], peer
        assert peer["podSelector"]["matchLabels"], peer
        names.add(peer["namespaceSelector"]["matchLabels"]["kubernetes.io/metadata.name"])
    assert names == {"ingress-nginx", "monitoring"}


def test_a_wide_forwarded_trust_range_is_never_shipped_without_the_policy():
    wide = [network for network in _forwarded_allow_ips() if network.num_addresses > 256]
    if wide:
        assert _policies_for_web()
