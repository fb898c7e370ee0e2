"""The original mcqa grader's behaviour, restated in Python for the differential test.

Written for this project from the behaviour of NeMo Gym's mcqa `/verify` (not a copy of its code):
the dataset's `template_metadata.output_regex` first (re.findall with IGNORECASE, last finding),
then the grading mode. Reads {"cases": [verify bodies]} on stdin and writes, per case,
{"reward", "expected_answer", "extracted_answer"} or {"error": exception class name}.
"""
import json
import re
import sys
import warnings

warnings.simplefilter("ignore")

LOCALIZED = {"أ": "A", "ب": "B", "ج": "C", "د": "D", "অ": "A", "ব": "B", "ড": "C", "ঢ": "D", "Ａ": "A", "Ｂ": "B", "Ｃ": "C", "Ｄ": "D"}
TEXT_WRAPPER = re.compile(r"\\text\{\s*(.*?)\s*\}", re.S)


def latin_letters(text):
    for localized, latin in LOCALIZED.items():
        text = text.replace(localized, " " + latin)
    return text.strip()


def unwrap_text(value):
    found = TEXT_WRAPPER.fullmatch(value)
    while found:
        value = found.group(1)
        found = TEXT_WRAPPER.fullmatch(value)
    return value


def squash(value):
    return " ".join(value.lower().split())


def valid_letters(options):
    return {key.upper() for entry in options or [] for key, text in entry.items() if len(key) == 1 and key.isalpha() and text is not None}


def last_box(text):
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    depth, inside = 1, start + len("\\boxed{")
    for index in range(inside, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return text[inside:index]
    return None


def boxed_letter(text, letters):
    inner = last_box(text)
    if inner is None:
        return None
    inner = unwrap_text(inner.strip())
    found = re.match(r"^[^A-Za-z]*([A-Z])[^A-Za-z]*$", inner) or re.match(r"^\s*([A-Z])\s*[:).\-]", inner)
    letter = found.group(1).upper() if found else None
    return letter if letter in letters else None


def boxed_option(text, options, letters):
    inner = last_box(text)
    if inner is None:
        return None
    inner = inner.strip()
    wanted = [squash(inner), squash(unwrap_text(inner))]
    choices = [(key.upper(), squash(value)) for entry in options or [] for key, value in entry.items() if value is not None and len(key) == 1 and key.upper() in letters]
    hits = {letter for candidate in wanted for letter, value in choices if value and value in candidate}
    return hits.pop() if len(hits) == 1 else None


def answer_colon(text, options, letters):
    found = re.search(r"(?i)answer\s*:\s*(.+)", text)
    if not found:
        return None
    candidate = unwrap_text(found.group(1)).strip()
    if len(candidate) == 1 and candidate.isalpha() and candidate.upper() in letters:
        return candidate.upper()
    for entry in options or []:
        for key, value in entry.items():
            if key.upper() in letters and squash(value) == squash(candidate):
                return key.upper()
    return None


def lists_choices(text, letters):
    spots = [(m.group(1).upper(), m.span(1)) for m in re.finditer(r"(?<![A-Za-z])([A-Za-z])(?![A-Za-z])", text) if m.group(1).upper() in letters]
    for (left, left_span), (right, right_span) in zip(spots, spots[1:]):
        if left != right and re.fullmatch(r"(?:\s*[/|&,;]\s*|\s+(?:or|and)\s+|\s+)", text[left_span[1] : right_span[0]], re.I):
            return True
    return False


def payload_letter(payload, letters):
    candidate = latin_letters(payload).strip().strip("*_` \t\n\r.,;:")
    if lists_choices(candidate, letters):
        return None
    if len(candidate) == 1:
        letter = candidate
    else:
        leading = re.match(r"^([a-zA-Z])(?![a-zA-Z0-9])", candidate)
        standalone = None if leading else re.search(r"\b[A-Z]\b(?!.*\b[A-Z]\b)", candidate, re.S)
        letter = leading.group(1) if leading else (standalone.group(0) if standalone else None)
    if letter and letter.upper() in letters:
        return letter.upper()
    return None


def markdown_answer(text, letters):
    for payload in reversed(re.findall(r"(?im)[*_]{0,2}Answer[*_]{0,2}\s*:[*_\s]{0,2}(.+)", text)):
        letter = payload_letter(payload, letters)
        if letter is not None:
            return letter
    return None


def dataset_pattern_answer(text, pattern, letters, options):
    try:
        findings = re.findall(pattern, text, re.IGNORECASE)
    except re.error:
        return None
    if not findings:
        return None
    captured = latin_letters(findings[-1].strip()).upper()
    if len(captured) == 1 and captured.isalpha():
        return captured
    for entry in options or []:
        for key, value in entry.items():
            if value is not None and key.upper() in letters and squash(value) == squash(captured):
                return key.upper()
    return None


def grade(body, config_mode=None):
    options = body.get("options")
    gold = (body.get("expected_answer") or "").strip().upper()
    letters = valid_letters(options)
    mode = config_mode or body.get("grading_mode") or "strict_single_letter_boxed"
    text = "".join(part["text"] for item in body["response"]["output"] if item.get("type") == "message" for part in item["content"] if part.get("type") == "output_text").strip()
    if not text:
        return {"reward": 0.0, "expected_answer": gold, "extracted_answer": None}
    letter = None
    metadata = body.get("template_metadata")
    if metadata and "output_regex" in metadata:
        patterns = metadata["output_regex"]
        for pattern in [patterns] if isinstance(patterns, str) else patterns:
            letter = dataset_pattern_answer(text, pattern, letters, options)
            if letter is not None:
                break
    if letter is None:
        if mode == "strict_single_letter_boxed":
            letter = boxed_letter(text, letters)
        elif mode == "lenient_boxed":
            letter = boxed_letter(text, letters) or boxed_option(text, options, letters)
        elif mode == "lenient_answer_colon":
            letter = answer_colon(text, options, letters)
        elif mode == "lenient_answer_colon_md":
            letter = markdown_answer(text, letters)
    reward = 1.0 if letter is not None and gold and letter == gold else 0.0
    return {"reward": reward, "expected_answer": gold, "extracted_answer": letter}


def safe_grade(body):
    try:
        return grade(body)
    except Exception as error:  # the original answers such a request with a 500
        return {"error": type(error).__name__}


json.dump([safe_grade(body) for body in json.load(sys.stdin)["cases"]], sys.stdout)
