"""A box of many groups for the tests: the app as ``serve --groups`` makes it, a phone that
starts a group, and a phone's client that speaks inside one group's pages."""

from __future__ import annotations

import re

from scorekeeper.web import create_app

from web_helpers import soup


def groups_app(tmp_path, mode: str = "open", **config):
    return create_app(
        {
            "TESTING": True,
            "WTF_CSRF_ENABLED": False,
            "GROUPS": mode,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            **config,
        }
    )


class InGroup:
    """A phone's test client inside group *group*: every path is one of the group's pages."""

    def __init__(self, client, group: str):
        self.client, self.group = client, group

    def path(self, url: str) -> str:
        return url if url.startswith("/g/") else f"/g/{self.group}{url}"

    def get(self, url: str, **kwargs):
        return self.client.get(self.path(url), **kwargs)

    def post(self, url: str, **kwargs):
        return self.client.post(self.path(url), **kwargs)


def start_group(
    app, name: str = "Friday table", lang: str = "en", *, phone=None, address: str = "127.0.0.1"
) -> tuple[str, str, object]:
    """A phone starts a group: (its id, its join link's path, the phone)."""
    phone = phone or app.test_client()
    response = phone.post(
        "/groups/new", data={"name": name, "lang": lang}, environ_base={"REMOTE_ADDR": address}
    )
    assert response.status_code == 303, soup(response).get_text(" ", strip=True)[:500]
    group = response.headers["Location"].split("/")[2]
    page = phone.get(response.headers["Location"]).get_data(as_text=True)
    join = re.search(r"/g/[a-z2-9]+/join/[0-9a-f]{32}", page)
    assert join is not None, page[:2000]
    return group, join.group(0), phone


def group_file(app, group: str) -> str:
    return str(app.extensions["groups"].path_of(group))
