#!/usr/bin/python3
"""Long-lived helper that drives ONE warm soffice over UNO for lib/pdf/libreoffice.ts.

Why a helper at all: `soffice --convert-to` pays LibreOffice's start-up (about 1.3 s) for every
document; a warm instance converts a small DOCX in tens of milliseconds. Node has no UNO bridge,
so this process (run with the system python3 that has python3-uno) is the bridge.

Protocol: one JSON object per line.
  stdout, once:      {"ready": true[, "warning": "..."]}  or  {"fatal": "..."} followed by exit
  stdin:             {"id": 1, "in": "/tmp/x/in.docx", "out": "/tmp/x/out.pdf",
                      "import": "MS Word 2007 XML", "filter": "writer_pdf_Export"}
                     {"quit": true}   -> ask soffice to terminate cleanly, then exit
  stdout, per job:   {"id": 1, "ok": true, "size": 41234}          the PDF's size in bytes
                     {"id": 1, "ok": false, "input": true,  "error": "..."}   the document is bad
                     {"id": 1, "ok": false, "input": false, "error": "..."}   office failed
                     {"id": 1, "ok": false, "input": false, "crashed": true, "error": "..."}
                                                          soffice or the UNO bridge broke; the helper
                                                          then exits
Nothing else may be written to stdout; diagnostics go to stderr.
"""
import argparse
import json
import os
import shutil
import signal
import sys
import threading
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException
from com.sun.star.lang import DisposedException, IllegalArgumentException
from com.sun.star.io import IOException
from com.sun.star.uno import RuntimeException

# com.sun.star.document.MacroExecMode.NEVER_EXECUTE and UpdateDocMode.NO_UPDATE: templates are
# user uploads, so nothing in them may run code or refresh links while we render them.
NEVER_EXECUTE = 0
NO_UPDATE = 0


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def log(msg):
    sys.stderr.write("uno_convert: %s\n" % msg)
    sys.stderr.flush()


class Office:
    def __init__(self, args):
        self.args = args
        self.desktop = None

    def kill_soffice(self):
        """Used when Node is gone: nobody else will stop our soffice or remove its profile."""
        try:
            os.killpg(self.args.soffice_pgid, signal.SIGTERM)
            deadline = time.time() + 2
            while time.time() < deadline:
                os.killpg(self.args.soffice_pgid, 0)
                time.sleep(0.1)
            os.killpg(self.args.soffice_pgid, signal.SIGKILL)
        except OSError:
            pass
        if self.args.profile_dir:
            shutil.rmtree(self.args.profile_dir, ignore_errors=True)
        for path in self.args.stale_file:
            # soffice's unix sockets: a killed soffice leaves them in /tmp.
            try:
                os.unlink(path)
            except OSError:
                pass

    def connect(self):
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
        url = "uno:pipe,name=%s;urp;StarOffice.ComponentContext" % self.args.pipe
        deadline = time.time() + self.args.connect_timeout
        while True:
            try:
                ctx = resolver.resolve(url)
                self.desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
                return ctx
            except NoConnectException:
                # soffice creates the pipe a second or so after it starts; poll until then.
                if time.time() > deadline:
                    raise RuntimeError("soffice did not accept a UNO connection within %ss" % self.args.connect_timeout)
                try:
                    os.killpg(self.args.soffice_pgid, 0)
                except OSError:
                    raise RuntimeError("soffice exited before accepting a UNO connection")
                time.sleep(0.1)

    def convert(self, job):
        src = uno.systemPathToFileUrl(job["in"])
        dst = uno.systemPathToFileUrl(job["out"])
        load_props = (
            prop("Hidden", True),
            prop("ReadOnly", True),
            # Forcing the import filter makes a corrupt file fail instead of being "rescued"
            # as plain text, which would produce a PDF of garbage.
            prop("FilterName", job["import"]),
            prop("MacroExecutionMode", NEVER_EXECUTE),
            prop("UpdateDocMode", NO_UPDATE),
        )
        try:
            doc = self.desktop.loadComponentFromURL(src, "_blank", 0, load_props)
        except (IllegalArgumentException, IOException) as e:
            return {"ok": False, "input": True, "error": "cannot open the document: %s" % e.Message}
        if doc is None:
            return {"ok": False, "input": True, "error": "LibreOffice could not read the document"}
        try:
            doc.storeToURL(dst, (prop("FilterName", job["filter"]),))
        except IOException as e:
            close(doc)
            # Loaded but not exportable: most likely the disk or soffice, not the document.
            return {"ok": False, "input": False, "error": "PDF export failed: %s" % e.Message}
        except BaseException:
            close(doc)
            raise
        # Checked here, where it costs no extra round trip: Node may hand the file on without reading it.
        try:
            with open(job["out"], "rb") as pdf:
                head = pdf.read(5)
                size = os.fstat(pdf.fileno()).st_size
        except OSError as e:
            close(doc)
            return {"ok": False, "input": False, "error": "PDF export wrote no file: %s" % e}
        if head != b"%PDF-":
            close(doc)
            return {"ok": False, "input": False, "error": "LibreOffice produced something that is not a PDF"}
        # The PDF is complete once storeToURL returns: the caller answers first and the document is
        # closed after (before the next job is read), so closing is not part of a conversion's latency.
        return {"ok": True, "size": size, "close": doc}

    def terminate(self):
        try:
            if self.desktop is not None:
                self.desktop.terminate()
        except Exception:  # the bridge drops while soffice exits; that is the success case
            pass


def harden(ctx):
    """Stops documents from making soffice fetch URLs they link to (e.g. an image with
    TargetMode="External"): templates are user uploads, so those fetches would let anyone with an
    API key probe the server's network. Set before the first document is loaded."""
    provider = ctx.ServiceManager.createInstanceWithContext("com.sun.star.configuration.ConfigurationProvider", ctx)
    access = provider.createInstanceWithArguments(
        "com.sun.star.configuration.ConfigurationUpdateAccess",
        (prop("nodepath", "/org.openoffice.Office.Common/Security/Scripting"),),
    )
    access.setPropertyValue("BlockUntrustedRefererLinks", True)
    access.commitChanges()
    if not access.getPropertyValue("BlockUntrustedRefererLinks"):
        raise RuntimeError("setting did not stick")


def close(doc):
    # A leaked document keeps its memory in soffice for the life of the slot.
    try:
        doc.close(True)
    except Exception:
        try:
            doc.dispose()
        except Exception:
            pass


def watch_parent(office):
    """Node may die without running its exit handlers (SIGKILL, OOM); then we are re-parented."""
    parent = os.getppid()
    while True:
        time.sleep(1)
        if os.getppid() != parent:
            log("parent process is gone; stopping soffice")
            office.kill_soffice()
            os._exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pipe", required=True)
    parser.add_argument("--soffice-pgid", type=int, required=True)
    parser.add_argument("--profile-dir", default="")
    parser.add_argument("--stale-file", action="append", default=[])
    parser.add_argument("--connect-timeout", type=float, default=60)
    args = parser.parse_args()
    if args.soffice_pgid <= 1:
        # killpg on 0 or 1 would signal our own group or every process we may signal.
        send({"fatal": "soffice did not start (no process id)"})
        return 1

    office = Office(args)

    def on_signal(signum, _frame):
        # Ctrl-C reaches the whole foreground group, including us; soffice runs in its own group.
        office.kill_soffice()
        os._exit(128 + signum)

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    threading.Thread(target=watch_parent, args=(office,), daemon=True).start()

    try:
        ctx = office.connect()
    except Exception as e:
        send({"fatal": str(e)})
        return 1
    ready = {"ready": True}
    try:
        harden(ctx)
    except Exception as e:
        # Older LibreOffice (< 7.1) lacks the option. Converting without it beats not converting;
        # Node logs the warning so an operator can upgrade.
        ready["warning"] = "cannot block external links in documents (%s); upgrade LibreOffice" % getattr(e, "Message", e)
    send(ready)

    while True:
        line = sys.stdin.readline()
        if not line:  # Node closed our stdin: it is exiting or replacing this slot
            office.kill_soffice()
            return 0
        try:
            job = json.loads(line)
        except ValueError:
            log("ignoring malformed request line")
            continue
        if job.get("quit"):
            office.terminate()
            return 0
        try:
            result = office.convert(job)
        except (DisposedException, RuntimeException) as e:
            # The bridge or soffice itself broke: report it, then exit so Node restarts the slot.
            # "crashed" is the fact Node acts on: the wording of e.Message varies with when soffice went.
            send({"id": job.get("id"), "ok": False, "input": False, "crashed": True, "error": "LibreOffice failed: %s" % e.Message})
            return 1
        except Exception as e:
            send({"id": job.get("id"), "ok": False, "input": False, "crashed": True, "error": "LibreOffice failed: %s" % e})
            return 1
        doc = result.pop("close", None)
        result["id"] = job.get("id")
        send(result)
        if doc is not None:
            close(doc)


if __name__ == "__main__":
    sys.exit(main())
