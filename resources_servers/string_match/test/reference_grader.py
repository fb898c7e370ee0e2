"""The original string_match grader's behaviour, restated in Python for the differential test.

Written for this project from the behaviour of NeMo Gym's string_match `/verify` (not a copy of
its code): the answer is read per `extraction_mode`, then compared exactly (`case_sensitive`) or
through the string-match equivalences. Reads {"cases": [verify bodies]} on stdin and writes, per
case, {"reward", "expected_answer", "extracted_answer"}.
"""
import json
import re
import sys
import unicodedata

WRAPPER = re.compile(r"\\text\{\s*(.*?)\s*\}", re.S)
UNITS = re.compile(r"\^\{?\\circ\}?|\\circ|°|cm[²³]?|mm|km|m[²³]?|kg")
LATEX = ["\\boxed", "\\text", "\\textbf", "\\textit", "\\texttt", "\\mathrm", "\\mathbf", "\\mathit", "\\mathsf", "\\mathbb", "\\mathcal", "\\emph", "\\url"]
SYMBOLS = [("°", "^\\circ"), ("²", "^2"), ("³", "^3"), ("⁴", "^4"), ("⁵", "^5"), ("⁶", "^6"), ("⁷", "^7"), ("⁸", "^8"), ("⁹", "^9"), ("√", "\\sqrt"), ("﹣", "-"), ("﹢", "+"), ("﹦", "="), ("﹤", "<"), ("﹥", ">"), ("：", ":"), ("π", "\\pi")]
STATES = [("district of columbia", "DC"), ("new hampshire", "NH"), ("new jersey", "NJ"), ("new mexico", "NM"), ("new york", "NY"), ("north carolina", "NC"), ("north dakota", "ND"), ("rhode island", "RI"), ("south carolina", "SC"), ("south dakota", "SD"), ("west virginia", "WV")]
STATES += [(name, code) for name, code in (("alabama", "AL"), ("alaska", "AK"), ("arizona", "AZ"), ("arkansas", "AR"), ("california", "CA"), ("colorado", "CO"), ("connecticut", "CT"), ("delaware", "DE"), ("florida", "FL"), ("georgia", "GA"), ("hawaii", "HI"), ("idaho", "ID"), ("illinois", "IL"), ("indiana", "IN"), ("iowa", "IA"), ("kansas", "KS"), ("kentucky", "KY"), ("louisiana", "LA"), ("maine", "ME"), ("maryland", "MD"), ("massachusetts", "MA"), ("michigan", "MI"), ("minnesota", "MN"), ("mississippi", "MS"), ("missouri", "MO"), ("montana", "MT"), ("nebraska", "NE"), ("nevada", "NV"), ("ohio", "OH"), ("oklahoma", "OK"), ("oregon", "OR"), ("pennsylvania", "PA"), ("tennessee", "TN"), ("texas", "TX"), ("utah", "UT"), ("vermont", "VT"), ("virginia", "VA"), ("washington", "WA"), ("wisconsin", "WI"), ("wyoming", "WY"))]


def unwrap(value):
    found = WRAPPER.fullmatch(value)
    while found:
        value = found.group(1)
        found = WRAPPER.fullmatch(value)
    return value


def boxed(text):
    for start in reversed([m.end() for m in re.finditer(r"\\boxed\{", text)]):
        depth = 1
        for index in range(start, len(text)):
            depth += {"{": 1, "}": -1}.get(text[index], 0)
            if depth == 0:
                return unwrap(text[start:index].strip()).strip()
    return None


def final_answer(text):
    found = re.findall(r"(?i)(?:final\s+answer|answer)\s*[:：]\s*(.+)", text)
    if not found:
        return None
    return re.split(r"\.\s*$", found[-1].strip())[0].strip().rstrip(".")


def extract(text, mode):
    if mode == "boxed":
        return boxed(text)
    if mode == "final_answer":
        answer = final_answer(text)
        return boxed(text) if answer is None else answer
    if mode == "last_line":
        return next((line.strip() for line in reversed(text.splitlines()) if line.strip()), None)
    return text.strip() or None


def without_command(command, text):
    opener = command + "{"
    while opener in text:
        before, after = text.split(opener, 1)
        depth = 1
        for index, char in enumerate(after):
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth == 0:
                text = before + after[:index] + after[index + 1 :]
                break
        if depth:
            text = before + after
    return text


def plain_latex(text):
    for command in LATEX:
        text = without_command(command, text)
    for token in ("\\(", "\\)", "\\[", "\\]", "$"):
        text = text.replace(token, "")
    return " ".join(text.split())


def as_list(text):
    spaced = text.replace(",", " ").replace(";", " ").replace("and", " ").replace("or", " ")
    return text if len(spaced) < 0.9 * len(text) else " ".join(spaced.split())


def states(text):
    for name, code in STATES:
        text = text.replace(name, code)
    return as_list(text).lower()


def symbols(text):
    for symbol, spelled in SYMBOLS:
        text = text.replace(symbol, spelled)
    return text


def float_form(text):
    try:
        return str(float(text.replace("\\%", "").replace("\\$", "").replace("$", "").strip()))
    except ValueError:
        return text


def numeric(text):
    for char in "$£€%,":
        text = text.replace(char, "")
    return UNITS.sub("", symbols(text)).replace("\\%", "").replace("\\$", "").strip()


def closeness(gold, pred):
    try:
        p, g = float(numeric(pred)), float(numeric(gold))
    except ValueError:
        return 0.0
    return max(0.0, 1.0 - abs(p - g) / max(abs(g), 1e-9)) ** 2


def canonical(text):
    text = unicodedata.normalize("NFKC", text)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1]
    text = text.lower()
    return text.rstrip(".!?") or text


def grade(gold, pred):
    gold, pred = canonical(gold), canonical(pred)
    if pred == gold or float_form(pred) == float_form(gold):
        return 1.0
    digits = lambda t: re.sub(r"(\d+),(\d+)", r"\1\2", t).replace("\\%", "%")
    for rewrite in (digits, plain_latex, as_list, states):
        if rewrite(pred) == rewrite(gold):
            return 1.0
    if closeness(gold, pred) > 0.98:
        return 0.98
    bare = lambda t: UNITS.sub("", symbols(plain_latex(t))).strip()
    if bare(pred) == bare(gold):
        return 1.0
    return 0.98 if closeness(bare(gold), bare(pred)) > 0.98 else 0.0


def verify(body):
    parts = []
    for item in body["response"]["output"]:
        if item.get("type") == "message" and item.get("role") == "assistant":
            content = item.get("content")
            if isinstance(content, str):
                parts.append(content)
            else:
                parts.extend(part["text"] for part in content if isinstance(part.get("text"), str))
    extracted = extract("\n".join(parts).strip(), body.get("extraction_mode", "final_answer"))
    expected = body["expected_answer"]
    reward = 0.0
    if extracted is not None and expected:
        if body.get("case_sensitive", False):
            reward = 1.0 if extracted.strip() == expected.strip() else 0.0
        else:
            reward = grade(expected, extracted)
    return {"reward": reward, "expected_answer": expected, "extracted_answer": extracted}


json.dump([verify(body) for body in json.load(sys.stdin)["cases"]], sys.stdout)
