"""Our reference of the original's example_multi_step grading, in Python: reads
{"verify": [...cases], "synonyms": [...]} on stdin, prints the verify fields of each case (or
{"error": ...} where the original's verify would raise) and each synonym's value."""
import json
import sys


def grade(case):
    expected = case["expected_synonym_values"]
    actual = []
    for output in reversed(case["response"]["output"]):
        if output.get("type") == "function_call" and output.get("name") == "extract_synonym_values":
            actual = json.loads(output["arguments"])["synonym_values"]
            break
    accuracy = expected == actual
    set_overlap = len(set(actual) & set(expected)) / len(expected)
    return {
        "reward": float(accuracy),
        "parsed_synonym_values": actual,
        "accuracy": accuracy,
        "set_overlap": set_overlap,
        "original_term_minefield_hit": case["minefield_label"] in actual or case["minefield_label_value"] in actual,
        "order_instruction_following_failure": not accuracy and set_overlap == 1.0,
    }


def safe_grade(case):
    try:
        return grade(case)
    except Exception as error:  # the original answers 500 here
        return {"error": type(error).__name__}


request = json.load(sys.stdin)
json.dump({"verify": [safe_grade(c) for c in request["verify"]], "synonyms": [sum(map(ord, s)) for s in request["synonyms"]]}, sys.stdout)
