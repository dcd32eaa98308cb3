"""The part of the dataclass modules' converter that reads and writes formatted strings.

The text after the line ``# --- the converter ---`` follows ``dataclass_runtime``'s in a dataclass
module whose types have a format (or name another input's classes, whose types may): it fills the
converter's ``_FORMATS`` and ``_WRITERS`` (the names above the marker come from there). It reads
and writes what msgspec does: RFC 3339 dates and times (``Z`` for UTC, the fraction rounded to
microseconds), ISO 8601 durations of days, hours, minutes and seconds (written ``P1DT2.5S``), UUIDs
of 32 hex digits with or without the hyphens (written with), decimals from strings or numbers
(written as strings), base64 with its padding.
"""

from __future__ import annotations

import base64
import datetime
import decimal
import re
import typing
import uuid

from .dataclass_runtime import _FORMATS, _WRITERS, _expected, _Fail, _Read

# --- the converter ---


_N = r"(\d+(?:\.\d+)?)"
_DAY, _SPAN = (
    r"\d{4}-\d\d-\d\d",
    rf"([-+]?)P(?:{_N}D)?(?:T(?=\d)(?:{_N}H)?(?:{_N}M)?(?:{_N}S)?)?",
)
_UNITS = "'D', 'H', 'M', and 'S'"
_CLOCK = r"(\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?"


def _format(hint: typing.Any, name: str, text: str) -> _Read:
    pattern = re.compile(
        text, re.ASCII | re.DOTALL | re.IGNORECASE * (hint is not bytes)
    )
    invalid = {
        "duration": "ISO8601 duration",
        "uuid": "UUID",
        "decimal": "decimal string",
    }
    invalid["bytes"] = "base64 encoded string"
    why = "Invalid " + invalid.get(name, f"RFC3339 encoded {name}")

    def read(value: typing.Any) -> typing.Any:
        if hint is decimal.Decimal and type(value) in (int, float):
            return decimal.Decimal(repr(value))
        if type(value) is not str:
            raise _expected([name], value)
        if name == "duration" and re.match(r"[-+]?P[^T]*[YMW]", value, re.IGNORECASE):
            raise _Fail(
                f"Only units {_UNITS} are supported when parsing ISO8601 durations"
            )
        try:
            if (match := pattern.fullmatch(value)) is None:
                raise ValueError(value)
            return _parse(hint, value, match.groups())
        except (ValueError, ArithmeticError):
            raise _Fail(why) from None

    return read


def _parse(hint: typing.Any, text: str, parts: tuple[typing.Any, ...]) -> typing.Any:
    if hint is bytes:
        return base64.b64decode(text, validate=True)
    if hint is datetime.date:
        return datetime.date.fromisoformat(text)
    if hint is uuid.UUID or hint is decimal.Decimal:
        return hint(text)
    if hint is datetime.timedelta:
        if parts[1:] == (None,) * 4:
            raise ValueError(text)
        units = zip(parts[1:], (86400, 3600, 60, 1))
        seconds = sum(
            (decimal.Decimal(u) * s for u, s in units if u), decimal.Decimal()
        )
        try:
            size = datetime.timedelta(microseconds=round(seconds * 1000000))
        except OverflowError:
            raise _Fail("Duration is out of range") from None
        return -size if parts[0] == "-" else size
    day, clock, fraction, zone = parts
    moment = datetime.datetime.fromisoformat(
        (day or "2000-01-01T") + clock + (zone or "").upper()
    )
    digits = (fraction or ".")[1:]  # rounded to microseconds as msgspec rounds it
    moment += datetime.timedelta(
        microseconds=int(digits[:6].ljust(6, "0")) + (digits[6:7] >= "5")
    )
    return moment if hint is datetime.datetime else moment.timetz()


def _iso(value: typing.Any) -> str:
    text: str = value.isoformat()
    return text[:-6] + "Z" if value.utcoffset() == datetime.timedelta(0) else text


def _duration(value: datetime.timedelta) -> str:
    size = abs(value)
    text = ("-P" if value < size else "P") + (f"{size.days}D" if size.days else "")
    fraction = f".{size.microseconds:06d}".rstrip("0") if size.microseconds else ""
    text += f"T{size.seconds}{fraction}S" if size.seconds or fraction else ""
    return text if size else "P0D"


def _base64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _add(
    hint: type, name: str, text: str, write: typing.Callable[[typing.Any], str]
) -> None:
    kinds: dict[type, int] = (
        {str: 1, int: 3, float: 1} if hint is decimal.Decimal else {str: 1}
    )
    _FORMATS[hint], _WRITERS[hint] = (_format(hint, name, text), kinds, {name}), write


_add(datetime.datetime, "datetime", f"({_DAY}[T ]){_CLOCK}", _iso)
_add(datetime.date, "date", _DAY, datetime.date.isoformat)
_add(datetime.time, "time", f"(){_CLOCK}", _iso)
_add(datetime.timedelta, "duration", _SPAN, _duration)
_add(uuid.UUID, "uuid", r"[0-9a-f]{8}(-?)(?:[0-9a-f]{4}\1){3}[0-9a-f]{12}", str)
_add(decimal.Decimal, "decimal", ".*", str)
_add(bytes, "bytes", "[A-Za-z0-9+/]*={0,2}", _base64)
