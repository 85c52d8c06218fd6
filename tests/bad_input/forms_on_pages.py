"""The forms the site's pages draw, read from their HTML: the fields a visitor can send to each address."""

from html.parser import HTMLParser


class _Forms(HTMLParser):
    def __init__(self):
        super().__init__()
        self.forms = []
        self._form = None
        self._select = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._form = {
                "action": attrs.get("action") or "",
                "method": (attrs.get("method") or "get").lower(),
                "fields": {},
            }
            self.forms.append(self._form)
        elif self._form is None or "name" not in attrs and tag != "option":
            return
        elif tag in ("input", "button", "textarea"):
            self._form["fields"].setdefault(attrs["name"], attrs.get("value") or "")
        elif tag == "select":
            self._select = attrs["name"]
            self._form["fields"].setdefault(self._select, "")
        elif tag == "option" and self._select and not self._form["fields"][self._select]:
            self._form["fields"][self._select] = attrs.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def forms_on(html: str) -> list[dict]:
    parser = _Forms()
    parser.feed(html)
    return parser.forms
