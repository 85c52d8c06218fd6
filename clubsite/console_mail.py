"""The mail backend of development (`make run`, DEBUG): each mail printed to the console as its reader sees it."""

from django.core.mail.backends import console


class EmailBackend(console.EmailBackend):
    """Django's console backend prints a mail as it would be sent: a line longer than 78 characters, as a sign-up's
    link, goes quoted-printable, cut by a "=" that a link copied from the terminal keeps, and is then refused. This
    one prints the headers and each text part decoded. What a deployment sends (SMTP) is unchanged."""

    def write_message(self, message):
        mail = message.message()
        headers = [f"{name}: {value}" for name, value in mail.items() if name != "Content-Transfer-Encoding"]
        parts = [_readable(part) for part in mail.walk() if not part.is_multipart()]
        self.stream.write("\n".join(headers) + "\n\n" + "\n".join(parts) + "\n" + "-" * 79 + "\n")


def _readable(part) -> str:
    if part.get_content_maintype() == "text":
        return part.get_content()
    return f"[{part.get_content_type()} attachment: {part.get_filename() or 'unnamed'}]"
