"""Our reference of the original equivalence_llm_judge's grading, in Python: the same extraction
(re with MULTILINE | DOTALL, str.strip), prompt (str.format of the template), second-pass rules
and verdict parsing, over a scripted judge. Reads {"template": str, "cases": [{"rules": {...},
"row": {...}, "replies": [judge output lists]}]} on stdin; prints, per case, the reward, the
prompts sent and the verdict labels (or the judge failure)."""
import json
import re
import sys


def narrowed(text, regex):
    if not regex:
        return text
    try:
        matches = list(re.finditer(regex, text, flags=re.MULTILINE | re.DOTALL))
    except re.error:
        matches = []
    if not matches:
        return text
    m = matches[-1]
    for idx in range(1, len(m.groups()) + 1):
        value = m.group(idx)
        if isinstance(value, str) and value.strip() != "":
            return value.strip()
    return m.group(0).strip()


def assistant_text(output, regex, failure):
    for item in reversed(output):
        if item.get("type") == "message" and item.get("role") == "assistant":
            content = item.get("content")
            if isinstance(content, list):
                text = "\n".join(p["text"] for p in content if isinstance(p.get("text"), str)).strip()
            elif isinstance(content, str):
                text = content.strip()
            else:
                break
            return narrowed(text, regex) if text else failure
    return failure


def question_text(params, regex):
    last = None
    source = params.get("input") or []
    for item in source if isinstance(source, list) else []:
        if item.get("role") == "user" and isinstance(item.get("content"), str):
            last = item["content"]
    text = (last or "").strip()
    return narrowed(text, regex) if text else text


def grade(template, rules, row, replies):
    prompts, labels = [], []
    expected = row.get("expected_answer") or None
    if expected is None:
        exp = (row.get("metadata") or {}).get("expected_answer")
        expected = str(exp) if exp is not None else ""
    question = question_text(row["responses_create_params"], rules["question_extract_regex"])
    tm = row.get("template_metadata")
    own = tm.get("output_regex") if rules["use_per_record_regex"] and isinstance(tm, dict) else None
    regex = rules["response_extract_regex"]
    if own:
        regex = own
        if rules["extraction_length_threshold"] is not None and len(expected) > rules["extraction_length_threshold"]:
            regex = None
    skip = bool(own) and rules["extraction_length_threshold"] is not None and len(expected) > rules["extraction_length_threshold"]
    output = row["response"]["output"]
    generated = assistant_text(output, regex, rules["msg_extraction_failure"])

    def judge(q, e, g):
        prompts.append(template.format(question=q, expected_answer=e, generated_answer=g))
        reply = replies[len(prompts) - 1]
        eq_label, neq_label = rules["judge_equal_label"], rules["judge_not_equal_label"]
        try:
            last = reply[-1]
            if last.get("type") != "message":
                labels.append(None)
                return False
            text = last["content"][-1].get("text", "")
        except Exception:
            labels.append(None)
            return False
        eq, neq = text.find(eq_label), text.find(neq_label)
        if eq < 0 and neq < 0:
            labels.append(None)
            return False
        if eq >= 0 and (neq < 0 or eq < neq):
            labels.append(eq_label)
            return True
        labels.append(neq_label)
        return False

    if not judge(question, expected, generated):
        if skip or not (rules["check_full_generation_on_fail"] and own):
            reward = 0.0
        else:
            whole = assistant_text(output, None, rules["msg_extraction_failure"])
            reward = rules["reward_if_full_generation_succeeds"] if judge(question, expected, whole) else 0.0
    elif not rules["check_twice_swap"] or skip:
        reward = 1.0
    else:
        reward = 1.0 if judge(question, generated, expected) else rules["reward_if_swap_fails"]
    return {"reward": reward, "prompts": prompts, "labels": labels, "expected_answer": expected}


def main():
    data = json.load(sys.stdin)
    out = []
    for case in data["cases"]:
        try:
            out.append(grade(data["template"].strip(), case["rules"], case["row"], case["replies"]))
        except Exception as e:
            # the original's judge failsafe: any error of verify is a judge failure
            out.append({"judge_failed": f"{type(e).__name__}"})
    json.dump(out, sys.stdout)


main()
