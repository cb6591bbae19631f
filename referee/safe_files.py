"""Reading and writing files without being led astray: regular files only, bounded, private.

Every file the referee reads that a user or a damaged disk could have replaced goes through
`read_regular`: a FIFO, a device or a directory is refused at once (never waited on), a file
larger than `MAX_BYTES` is refused before it is read, and inside the data directory a symbolic
link is refused rather than followed. Every file the referee writes whole goes through
`write_atomically`: a temporary file of its own (created exclusively, never through a link),
fsynced and renamed over the old one. Caches go through `read_cache` and `write_cache`: each file
holds the digest of its own content, and no folder on the way to it is a link. Problems are raised
as OSError subclasses, so the callers' existing `except OSError` turns them into one line for the
table.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import secrets
import stat
from collections.abc import Sequence
from pathlib import Path

MAX_BYTES = 16 * 1024 * 1024
"""The largest file the referee reads: far above any session, answers file or rulebook."""

FILE_MODE = 0o600
DIRECTORY_MODE = 0o700
"""Session logs hold hidden holdings (hands, treason cards): only their owner may read them."""

TEMPORARY_PREFIX = ".referee-tmp-"
TEMPORARY_NAME = re.compile(r"\.referee-tmp-(\d+)-[0-9a-f]{8}-.+\.tmp")
"""`.referee-tmp-<pid>-<random>-<target name>.tmp`: the only names the orphan sweep removes."""


class NotRegularFile(OSError):
    """A path that names a directory, FIFO, device, socket or symbolic link where a file belongs."""


class FileTooLarge(OSError):
    """A file above the size the referee reads."""


def kind_of(mode: int) -> str:
    """What a file is, in a few words: 'a FIFO', 'a directory', 'a symbolic link'..."""
    kinds = (
        (stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISREG, "a file"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def not_regular(path: Path | str, mode: int) -> NotRegularFile:
    return NotRegularFile(errno.EINVAL, f"{kind_of(mode)}, not a regular file", str(path))


def is_devnull(info: os.stat_result) -> bool:
    """True for /dev/null itself: the conventional empty input, which can neither hang nor grow."""
    null = os.stat(os.devnull)
    return stat.S_ISCHR(info.st_mode) and info.st_rdev == null.st_rdev


def open_regular(path: Path, flags: int, follow: bool = False, allow_devnull: bool = False) -> int:
    """Open `path` only if it is a regular file (created 0600 when O_CREAT is given).

    O_NONBLOCK makes opening a FIFO return at once instead of waiting for a writer; fstat then
    refuses it. Without `follow`, a symbolic link is refused (O_NOFOLLOW) instead of followed.
    """
    flags |= os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        before = os.stat(path, follow_symlinks=follow)
    except FileNotFoundError:
        if not flags & os.O_CREAT:
            raise
    else:
        if not stat.S_ISREG(before.st_mode) and not (allow_devnull and is_devnull(before)):
            raise not_regular(path, before.st_mode)  # not even opened: opening a device can act
    try:
        fd = os.open(path, flags, FILE_MODE)
    except OSError as error:
        if error.errno == errno.ELOOP and not follow:
            raise not_regular(path, stat.S_IFLNK) from None
        raise
    info = os.fstat(fd)  # what was opened, not what the name pointed at a moment before
    if not stat.S_ISREG(info.st_mode) and not (allow_devnull and is_devnull(info)):
        os.close(fd)
        raise not_regular(path, info.st_mode)
    return fd


def read_regular(path: Path, limit: int = MAX_BYTES, follow: bool = False) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. `follow` is for files a user names on
    the command line (their own link is theirs to follow); store files never follow a link."""
    fd = open_regular(path, os.O_RDONLY, follow=follow, allow_devnull=follow)
    try:
        return read_bounded(fd, path, limit)
    finally:
        os.close(fd)


def read_bounded(fd: int, path: Path | str, limit: int) -> bytes:
    """What `fd` holds, refused (FileTooLarge) past `limit` bytes, even if the file grows meanwhile."""
    size = os.fstat(fd).st_size
    if size > limit:
        raise too_large(path, size, limit)
    chunks, total = [], 0
    while True:  # read to the end, but never past the limit
        chunk = os.read(fd, min(1 << 20, limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise too_large(path, total, limit)
    return b"".join(chunks)


def too_large(path: Path | str, size: int, limit: int) -> FileTooLarge:
    return FileTooLarge(errno.EFBIG, f"larger than {megabytes(limit)} ({size:,} bytes or more)", str(path))


def megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):g} MB"


def read_user_text(path: Path, limit: int = MAX_BYTES) -> str:
    """A text file named on the command line: a regular file (or /dev/null), UTF-8, with or
    without a byte-order mark (which some editors write at the start)."""
    return read_regular(path, limit, follow=True).decode("utf-8-sig")


def describe(error: OSError | UnicodeDecodeError) -> str:
    """A read problem in a few words, for a one-line message."""
    if isinstance(error, UnicodeDecodeError):
        return "not UTF-8 text"
    return error.strerror or error.__class__.__name__


def fsync_directory(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def temporary_name(target: Path) -> Path:
    return target.with_name(f"{TEMPORARY_PREFIX}{os.getpid()}-{secrets.token_hex(4)}-{target.name}.tmp")


def write_atomically(path: Path, text: str | bytes, durable: bool = True, mode: int = FILE_MODE) -> None:
    """Replace `path` with `text`: a new temporary file beside it (O_EXCL, never through a link,
    `mode`, 0600 unless said), fsync, rename over the target, fsync the directory. `durable=False`
    skips the fsyncs, for caches that can be rebuilt."""
    data = text.encode("utf-8") if isinstance(text, str) else text  # serialised before any file is touched
    temporary = temporary_name(path)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
    try:  # from here on the temporary file is ours to remove if anything goes wrong
        try:
            if mode != FILE_MODE:
                os.fchmod(fd, mode)  # the mode asked for, whatever the umask
            write_all(fd, data)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    if durable:
        fsync_directory(path.parent)


class OutsideDataDirectory(OSError):
    """A path given for output that names a file of the referee's own data directory."""


def inside(path: Path, directory: Path) -> bool:
    """True if `path`, with every link resolved, is `directory` or lies under it."""
    resolved, root = os.path.realpath(path), os.path.realpath(directory)
    return resolved == root or resolved.startswith(root.rstrip(os.sep) + os.sep)


def linked_into(info: os.stat_result, directory: Path) -> bool:
    """True if the file `info` describes is also one of the files of `directory` (a hard link)."""
    for folder, _, names in os.walk(directory):
        for name in names:
            with contextlib.suppress(OSError):
                other = os.lstat(os.path.join(folder, name))
                if (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino):
                    return True
    return False


def write_user_file(path: Path, text: str | bytes, data_dir: Path) -> None:
    """Write output to a path the user named, as a shell's `>` would, without ever harming the store.

    - Any path inside the data directory (after its links are followed) is refused, and so is a
      file that is a hard link of one of the data directory's files.
    - A FIFO with a reader, or a character device (/dev/null, a terminal), is written into; a FIFO
      nobody reads, a block device, a socket or a directory is refused (never waited on).
    - A regular file of one link is replaced atomically, keeping its mode; a symbolic link keeps
      pointing where it did and its target is the file replaced. A regular file of several links is
      rewritten in place, so every link still names the new text. A new file gets the mode the
      umask gives (as `>` does).
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    if inside(path, data_dir):
        raise OutsideDataDirectory(errno.EPERM, f"inside the referee's data directory ({data_dir}); "
                                                "write exports somewhere else", str(path))
    target = Path(os.path.realpath(path))
    try:
        info = os.stat(target)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        write_atomically(target, data, mode=0o666 & ~umask)
        return
    if stat.S_ISREG(info.st_mode):
        if info.st_nlink > 1:
            if linked_into(info, data_dir):
                raise OutsideDataDirectory(errno.EPERM, "a hard link of a file in the referee's data directory "
                                                        f"({data_dir}); write exports somewhere else", str(path))
            write_in_place(target, data, os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW)
        else:
            write_atomically(target, data, mode=stat.S_IMODE(info.st_mode))
        return
    if stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
        try:
            write_in_place(target, data, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:
            if error.errno == errno.ENXIO:  # a FIFO with no reader: opening it would wait for one
                raise OSError(errno.ENXIO, "a FIFO that nobody is reading", str(path)) from None
            raise
        return
    raise not_regular(path, info.st_mode)


def write_in_place(path: Path, data: bytes, flags: int) -> None:
    """Write `data` into what `path` opens (a device, a FIFO, a file kept with its links), blocking."""
    fd = os.open(path, flags | os.O_CLOEXEC)
    try:
        os.set_blocking(fd, True)  # a FIFO's reader may be slower than the writer
        write_all(fd, data)
        with contextlib.suppress(OSError):  # a terminal or a pipe cannot be synced
            os.fsync(fd)
    finally:
        os.close(fd)


# -- caches ---------------------------------------------------------------------------------------------
#
# A cache file is `CACHE_HEADER` and the digest of what it holds on its first line, then what it holds.
# It is used only while the digest matches, so an edited, cut or swapped cache is rebuilt, never
# believed. Every folder between the data directory and a cache file is opened without following a
# link (O_NOFOLLOW on the last component alone would follow a `cache/` that is a link), so a cache is
# never read, written or removed outside the data directory. The data directory itself is the user's
# choice (a link there is followed) and is never created for a cache: a command that only reads
# leaves a missing data directory missing.

CACHE_HEADER = b"referee-cache blake2b-160 "


def cache_header(body: bytes) -> bytes:
    return CACHE_HEADER + hashlib.blake2b(body, digest_size=20).hexdigest().encode()


def open_folders(data_dir: Path, folders: Sequence[str], create: bool = False) -> int:
    """A descriptor of the folder `folders` names under `data_dir`, each one a real directory (a
    link refused, ELOOP or ENOTDIR); `create` makes the missing ones (0700), never `data_dir`."""
    fd = os.open(data_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for name in folders:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, DIRECTORY_MODE, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
            os.close(fd)
            fd = inner
    except BaseException:
        os.close(fd)
        raise
    return fd


def parts_under(path: Path, data_dir: Path) -> tuple[str, ...]:
    """The names leading from `data_dir` to `path` (a cache file's path is built from it)."""
    parts = path.relative_to(data_dir).parts
    if not parts or ".." in parts:
        raise ValueError(f"{path} is not a file under {data_dir}")
    return parts


def read_cache(path: Path, data_dir: Path) -> str | None:
    """The text a cache file holds, or None when there is none to trust: missing, not a regular file,
    reached through a link, over 16 MB, not UTF-8, or not matching its own digest."""
    try:
        *folders, name = parts_under(path, data_dir)
        folder = open_folders(data_dir, folders)
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
        finally:
            os.close(folder)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            raw = read_bounded(fd, path, MAX_BYTES)
        finally:
            os.close(fd)
        header, newline, body = raw.partition(b"\n")
        if not newline or header != cache_header(body):
            return None
        return body.decode("utf-8")
    except (OSError, ValueError):  # (UnicodeDecodeError is a ValueError)
        return None


def write_cache(path: Path, text: str, data_dir: Path, sweep: bool = True) -> None:
    """Keep `text` in a cache file under its digest: its folders made (0700) if need be, never through a
    link, and never the data directory itself; crashed writes in the folder swept first (unless
    `sweep` is False: a caller writing many files sweeps once); replaced atomically, without fsync. A
    failure only costs speed (no data directory, a read-only one, a file or link where a folder
    should be), so it passes."""
    data = text.encode("utf-8")
    try:
        *folders, name = parts_under(path, data_dir)
        folder = open_folders(data_dir, folders, create=True)  # (no data directory: no cache)
    except (OSError, ValueError):
        return
    temporary = temporary_name(Path(name)).name
    try:
        if sweep:
            sweep_open_folder(folder)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE,
                     dir_fd=folder)
        try:
            write_all(fd, cache_header(data) + b"\n" + data)
        finally:
            os.close(fd)
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
    finally:
        os.close(folder)


def remove_cache(path: Path, data_dir: Path) -> bool:
    """Remove a cache file (never through a link to another folder); True if there was one."""
    try:
        *folders, name = parts_under(path, data_dir)
        folder = open_folders(data_dir, folders)
    except (OSError, ValueError):
        return False
    try:
        os.unlink(name, dir_fd=folder)
    except OSError:
        return False
    finally:
        os.close(folder)
    return True


def make_private_directory(path: Path, tighten: bool = False) -> None:
    """Create a directory of the referee's (0700; missing parents get the usual mode) unless there
    is one; refuse anything else in its place (a file, a symbolic link). `tighten` also closes a
    folder that is certainly the referee's own (made by an older version) to group and others."""
    with contextlib.suppress(FileExistsError):
        path.mkdir(mode=DIRECTORY_MODE, parents=True)
    check_directory(path)
    if tighten:
        info = os.lstat(path)
        if info.st_mode & 0o077 and info.st_uid == os.getuid():
            os.chmod(path, DIRECTORY_MODE)


def check_directory(path: Path) -> None:
    """Raise NotRegularFile (with the reason) unless `path` is absent or a real directory (no link)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(info.st_mode):
        raise NotRegularFile(errno.ENOTDIR, f"{kind_of(info.st_mode)}, not a directory", str(path))


def sweep_temporaries(directory: Path) -> None:
    """Remove temporary files of writes that a crash interrupted: only names `temporary_name` makes,
    only regular files, only in `directory` itself (never a link to another), and only when their
    process has gone."""
    try:
        folder = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return
    try:
        sweep_open_folder(folder)
    finally:
        os.close(folder)


def sweep_open_folder(folder: int) -> None:
    """`sweep_temporaries` in the folder open as `folder`."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        match = TEMPORARY_NAME.fullmatch(name)
        if match is None or pid_alive(int(match.group(1))):
            continue
        with contextlib.suppress(OSError):
            if stat.S_ISREG(os.lstat(name, dir_fd=folder).st_mode):
                os.unlink(name, dir_fd=folder)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # someone else's process, or a number no process has: keep the file
    return True
