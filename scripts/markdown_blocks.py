"""What the documentation scripts (first-hour, readme-tour) share: the fenced blocks of a Markdown
file, and waiting for the dev server's port."""
import re
import socket
import time


def blocks(path):
    """The fenced blocks of a Markdown file: (info, text, heading above it)."""
    found, heading, current = [], "", None
    for line in path.read_text().split("\n"):
        if current is None and line.startswith("#"):
            heading = line.lstrip("#").strip()
        fence = re.match(r"^```(.*)$", line)
        if current is None and fence:
            current = (fence.group(1).strip(), [], heading)
        elif current is not None and fence and fence.group(1).strip() == "":
            found.append((current[0], "\n".join(current[1]) + "\n", current[2]))
            current = None
        elif current is not None:
            current[1].append(line)
    return found


def port_opens(port, timeout):
    """Whether something listens on 127.0.0.1:`port` within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.2)
    return False
