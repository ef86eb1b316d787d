#!/usr/bin/env python3
"""A small LSP client for xtask/bench/lsp.sh: JSON-RPC over a server's stdio,
standard library only.

It starts any language server command, opens a file as an editor does and
measures, per round (a fresh server each round):

  first  from spawning the server to the first publishDiagnostics of the
         opened file that has diagnostics (start-up, initialize, didOpen
         and the check itself); the file holds a known error, so an empty
         early list does not count as an answer;
  edit   from a didChange (full text: one more error, then one fewer, in
         turn) to the publishDiagnostics of the file that has the changed
         number of diagnostics (the server's answer to that edit).

With --many N it instead opens N files in one server, waits for the
diagnostics of each, and reports the resident memory of the server's
process tree (VmRSS, and the peak VmHWM) from /proc.

Output: one JSON object on stdout; progress on stderr. Every wait is
bounded (--timeout), so a server that hangs fails the run instead of
stopping it.
"""

import argparse
import json
import os
import queue
import shlex
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path


class Server:
    """One language server process and the messages it sends."""

    def __init__(self, command, root, settings, timeout):
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            command,
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.settings = settings
        self.timeout = timeout
        self.next_id = 0
        self.messages = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                continue
            body = out.read(length)
            try:
                self.messages.put(json.loads(body))
            except ValueError:
                pass

    def send(self, message):
        message["jsonrpc"] = "2.0"
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        wanted = self.next_id
        return self.wait(lambda m: m.get("id") == wanted and "method" not in m)

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def _answer(self, message):
        """Answers a request of the server as an editor would."""
        method = message["method"]
        if method == "workspace/configuration":
            items = message.get("params", {}).get("items", [])
            result = [self._section(item.get("section")) for item in items]
        else:
            result = None
        self.send({"id": message["id"], "result": result})

    def _section(self, section):
        value = self.settings
        for part in (section or "").split("."):
            if part:
                value = value.get(part) if isinstance(value, dict) else None
        return value

    def wait(self, matches):
        """The next message that `matches`, answering server requests."""
        deadline = time.perf_counter() + self.timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"no answer within {self.timeout} s")
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if message is None:
                raise RuntimeError(f"the server ended (exit code {self.proc.poll()})")
            if "method" in message and "id" in message:
                self._answer(message)
                continue
            if matches(message):
                return message

    def diagnostics(self, uri, nonempty=False, count=None):
        """The next publishDiagnostics of `uri` (with diagnostics, or with
        `count` of them, if asked: a list published before the server has
        seen the change does not count)."""
        def matches(m):
            if m.get("method") != "textDocument/publishDiagnostics":
                return False
            params = m.get("params", {})
            found = params.get("diagnostics") or []
            return (params.get("uri") == uri
                    and (not nonempty or found)
                    and (count is None or len(found) == count))
        return self.wait(matches)["params"]["diagnostics"]

    def initialize(self, root):
        self.request("initialize", {
            "processId": os.getpid(),
            "rootUri": root.as_uri(),
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "capabilities": {
                "workspace": {"configuration": True, "didChangeConfiguration": {"dynamicRegistration": True}},
                "textDocument": {
                    "synchronization": {"didSave": True},
                    "publishDiagnostics": {"relatedInformation": True},
                    "hover": {"contentFormat": ["markdown", "plaintext"]},
                },
            },
        })
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": self.settings})

    def open(self, path, text):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": path.as_uri(), "languageId": "yaml", "version": 1, "text": text}})

    def rss_kib(self):
        """(VmRSS, VmHWM) in KiB, summed over the server and its children."""
        pids = [self.proc.pid]
        children = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    children.setdefault(int(fields[1]), []).append(int(entry.name))
                except (OSError, IndexError):
                    pass
        at = 0
        while at < len(pids):
            pids.extend(children.get(pids[at], []))
            at += 1
        rss = hwm = 0
        for pid in pids:
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        rss += int(line.split()[1])
                    elif line.startswith("VmHWM:"):
                        hwm += int(line.split()[1])
            except OSError:
                pass
        return rss, hwm

    def close(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=5)
        except Exception:
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def edited(text):
    """The text with one more error: a key no Service or Deployment has."""
    return text.replace("  replicas: 2\n", "  replicas: 2\n  replicaz: 2\n", 1)


def rounds(args, command, root, settings, path, text):
    firsts, edits, counts, messages = [], [], [], []
    second = edited(text)
    assert second != text, "the file has no `  replicas: 2` line to edit after"
    for round_ in range(args.rounds):
        server = Server(command, root, settings, args.timeout)
        try:
            server.initialize(root)
            uri = path.as_uri()
            server.open(path, text)
            found = server.diagnostics(uri, nonempty=True)
            firsts.append(time.perf_counter() - server.started)
            counts.append(len(found))
            messages = [d.get("message", "")[:200] for d in found]
            for edit in range(args.edits):
                new = second if edit % 2 == 0 else text
                start = time.perf_counter()
                server.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri, "version": edit + 2},
                    "contentChanges": [{"text": new}]})
                # The edit adds one error, the next takes it away again.
                server.diagnostics(uri, count=len(found) + (1 if edit % 2 == 0 else 0))
                edits.append(time.perf_counter() - start)
        finally:
            server.close()
        print(f"  round {round_ + 1}: first {firsts[-1] * 1000:.1f} ms, "
              f"edits {statistics.median(edits[-args.edits:]) * 1000:.1f} ms (median)",
              file=sys.stderr)
    return {
        "first_ms": [round(t * 1000, 2) for t in firsts],
        "edit_ms": [round(t * 1000, 2) for t in edits],
        "first_median_ms": round(statistics.median(firsts) * 1000, 2),
        "edit_median_ms": round(statistics.median(edits) * 1000, 2),
        "diagnostics": counts[0],
        "messages": messages,
    }


def many(args, command, root, settings, text):
    folder = root / "many"
    folder.mkdir(exist_ok=True)
    paths = []
    for i in range(args.many):
        # Each file its own: the names in it differ, so no cache can share them.
        path = folder / f"file-{i:03}.yaml"
        path.write_text(text.replace("name: web-", f"name: w{i}-"))
        paths.append(path)
    server = Server(command, root, settings, args.timeout)
    try:
        server.initialize(root)
        start = time.perf_counter()
        for path in paths:
            server.open(path, path.read_text())
        waiting = {path.as_uri() for path in paths}
        while waiting:
            message = server.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
            waiting.discard(message["params"]["uri"])
        took = time.perf_counter() - start
        time.sleep(1)
        rss, hwm = server.rss_kib()
    finally:
        server.close()
    return {"files": args.many, "all_diagnosed_s": round(took, 2),
            "rss_mib": round(rss / 1024, 1), "peak_mib": round(hwm / 1024, 1)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--command", required=True, help="the server command line")
    parser.add_argument("--root", required=True, type=Path, help="the workspace folder")
    parser.add_argument("--file", required=True, type=Path, help="the file to open")
    parser.add_argument("--settings", default="{}", help="workspace settings as JSON")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--edits", type=int, default=10, help="edits per round")
    parser.add_argument("--many", type=int, default=0, help="open this many files and report memory")
    parser.add_argument("--timeout", type=float, default=120)
    args = parser.parse_args()
    command = shlex.split(args.command)
    root = args.root.resolve()
    path = args.file.resolve()
    settings = json.loads(args.settings)
    text = path.read_text()
    if args.many:
        result = many(args, command, root, settings, text)
    else:
        result = rounds(args, command, root, settings, path, text)
    result["lines"] = text.count("\n")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
