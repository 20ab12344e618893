"""hsfmt.py: the forms hopsplit's text and HTML give a value, re-implemented
from their definitions (units.c units_format_us; milliseconds with two
decimals rounded half up), for the checkers that compare them with the
JSON document (report_text_check.py, report_agree.py)."""


def div_round(n, d):
    return n // d + (1 if n % d >= d - d // 2 else 0)


def fmt_us(us):
    """units_format_us: the value of a duration with its unit."""
    sign, m = ("-" if us < 0 else ""), abs(us)
    v = div_round(m, 10)
    if v < 1000:
        return "%s%d.%02d ms" % (sign, v // 100, v % 100)
    v = div_round(m, 100)
    if v < 1000:
        return "%s%d.%d ms" % (sign, v // 10, v % 10)
    v = div_round(m, 1000)
    if v < 10000:
        return "%s%d ms" % (sign, v)
    v = div_round(m, 100000)
    return "%s%d.%d s" % (sign, v // 10, v % 10)


def ms2(us, sign=False):
    """Milliseconds with two decimals, no unit; "-" for null."""
    if us is None:
        return "-"
    v = div_round(abs(us), 10)
    s = "-" if us < 0 else ("+" if us > 0 and sign else "")
    return "%s%d.%02d" % (s, v // 100, v % 100)


def signed_cell(us):
    """A difference with its unit, "+" before a positive one."""
    if us is None:
        return "-"
    return ("+" if us > 0 else "") + fmt_us(us)
