"""Generates workplace_assistant's synthetic company ("Larkspur", a software firm): its directory,
mailbox, calendar, project board, CRM and web analytics (company.json), and the example tasks
(example.jsonl). Deterministic: `python3 data/generate.py` rewrites both files identically."""
import json
from pathlib import Path

HERE = Path(__file__).parent
DOMAIN = "larkspur.io"
PEOPLE = ["maya.okafor", "diego.ferreira", "hana.sato", "omar.haddad", "ingrid.larsen", "kwame.mensah", "lucia.romano", "arjun.nair", "noor.rahman", "tomas.novak", "elena.petrova", "samuel.adeyemi"]
EMAILS = [f"{p}@{DOMAIN}" for p in PEOPLE]


def first(address):
    return address.split(".")[0].capitalize()


TASK_NAMES = ["Refactor billing service", "Design onboarding flow", "Fix login timeout", "Add dark mode toggle", "Migrate metrics to new store", "Write API rate limiter", "Update style guide", "Build export to CSV", "Audit access logs", "Prototype search ranking", "Redesign pricing page", "Add retry to webhooks", "Improve image caching", "Create icon set", "Document deploy steps", "Tune database indexes"]
BOARDS = {"Back end": [0, 2, 4, 5, 7, 8, 11, 12, 14, 15], "Front end": [3, 9], "Design": [1, 6, 10, 13]}
LISTS = ["Backlog", "In Progress", "In Review", "Completed"]
EVENTS = ["sync up", "design review", "sprint planning", "one on one", "customer demo", "retro", "budget check-in", "hiring panel"]
COMPANIES = ["brightpath", "cobaltlabs", "meadowsoft", "quillworks", "tidewater", "ironleaf"]
CUSTOMERS = ["Ava Brooks", "Liam Chen", "Zoe Patel", "Noah Kim", "Mia Lopez", "Ethan Diaz", "Ruby Singh", "Leo Moreau", "Iris Walsh", "Finn Dubois", "Nina Ito", "Owen Clarke"]

tasks = []
for i, name in enumerate(TASK_NAMES):
    board = next(b for b, ids in BOARDS.items() if i in ids)
    tasks.append({"task_id": f"{i + 1:08d}", "task_name": name, "assigned_to_email": EMAILS[i % 8], "list_name": LISTS[i % 4], "due_date": f"2023-12-{(i % 20) + 1:02d}", "board": board})

events = []
for i in range(24):
    d = f"2023-{11 if i < 16 else 12}-{(i * 3) % 28 + 1:02d} {9 + (i % 8):02d}:{'00' if i % 2 == 0 else '30'}:00"
    events.append({"event_id": f"{i + 1:08d}", "event_name": EVENTS[i % len(EVENTS)], "participant_email": EMAILS[(i * 5) % len(EMAILS)], "event_start": d, "duration": str([30, 45, 60, 90][i % 4])})

emails = []
for i in range(30):
    person = EMAILS[(i * 7) % len(EMAILS)]
    task = TASK_NAMES[i % len(TASK_NAMES)]
    inbox = i % 3 != 2
    subject = f"Update on {task}" if i % 2 == 0 else f"Question about {task}"
    body = f"Hi,\n\n{'I finished' if i % 2 == 0 else 'I am stuck on'} '{task}'. {'Please take a look.' if inbox else 'Let me know what you think.'}\n\nThanks,\n{first(person) if inbox else 'Sam'}"
    emails.append({"email_id": f"{i + 1:08d}", "inbox/outbox": "inbox" if inbox else "outbox", "sender/recipient": person, "subject": subject, "sent_datetime": f"2023-11-{(i % 29) + 1:02d} {8 + i % 10:02d}:{(i * 13) % 60:02d}:00", "body": body})

customers = []
for i, name in enumerate(CUSTOMERS):
    company = COMPANIES[i % len(COMPANIES)]
    customers.append({"customer_id": f"{i + 1:08d}", "assigned_to_email": EMAILS[i % 6], "customer_name": name, "customer_email": f"{name.lower().replace(' ', '.')}@{company}.com", "customer_phone": f"555-01{i:02d}" if i % 3 else "", "last_contact_date": f"2023-11-{(i * 2) % 28 + 1:02d} 10:00:00", "product_interest": ["Software", "Hardware", "Services", "Consulting", "Training"][i % 5], "status": ["Lead", "Qualified", "Proposal", "Won", "Lost"][i % 5], "follow_up_by": f"2023-12-{(i * 2) % 28 + 1:02d} 10:00:00", "notes": f"2023-11-{(i % 28) + 1:02d}: Had a call."})

visits = []
for i in range(90):
    visits.append({"date_of_visit": f"2023-11-{(i % 30) + 1:02d}", "visitor_id": f"{1000 + i * 37 % 9000:04d}", "page_views": str(1 + i % 9), "session_duration_seconds": str(5 + (i * 17) % 300), "traffic_source": ["direct", "referral", "search engine", "social media"][i % 4], "user_engaged": "True" if i % 3 else "False"})

company = {"directory": EMAILS, "emails": emails, "calendar_events": events, "project_tasks": tasks, "customers": customers, "analytics": visits}
(HERE / "company.json").write_text(json.dumps(company, indent=1) + "\n")

SYSTEM = "Today's date is Thursday, 2023-11-30 and the current time is 23:59:00. Remember the current date and time when answering queries. Meetings must not start before 9am or end after 6pm."


def tool(tool_name, description, required, **properties):
    """A function tool in the Responses API shape; every property is a string unless given as (type, text)."""
    props = {k: {"type": v[0], "description": v[1]} if isinstance(v, tuple) else {"type": "string", "description": v} for k, v in properties.items()}
    return {"type": "function", "name": tool_name, "description": description, "parameters": {"type": "object", "properties": props, "required": required, "additionalProperties": False}, "strict": False}


PAGE = {"page": ("integer", "Page number of results"), "page_size": ("integer", "Results per page")}
schemas = [
    tool("company_directory_find_email_address", "Finds the email addresses of employees whose address contains the name.", [], name="Name or part of a name"),
    tool("email_get_email_information_by_id", "Returns one field of an email.", ["email_id", "field"], email_id="8-digit ID of the email", field="One of: email_id, inbox/outbox, sender/recipient, subject, sent_datetime, body"),
    tool("email_search_emails", "Searches emails whose subject, body and sender/recipient together contain every word of the query, newest first.", [], query="Words to match", date_min="Earliest sent date, YYYY-MM-DD", date_max="Latest sent date, YYYY-MM-DD", **PAGE),
    tool("email_send_email", "Sends an email.", ["recipient", "subject", "body"], recipient="Recipient email address", subject="Subject", body="Body"),
    tool("email_delete_email", "Deletes an email.", ["email_id"], email_id="8-digit ID of the email"),
    tool("email_forward_email", "Forwards an email.", ["email_id", "recipient"], email_id="8-digit ID of the email", recipient="Recipient email address"),
    tool("email_reply_email", "Replies to the sender of an email (or the recipient of one sent).", ["email_id", "body"], email_id="8-digit ID of the email", body="Body of the reply"),
    tool("calendar_get_event_information_by_id", "Returns one field of an event.", ["event_id", "field"], event_id="8-digit ID of the event", field="One of: event_id, event_name, participant_email, event_start, duration"),
    tool("calendar_search_events", "Searches events whose name or participant matches the query, latest first.", [], query="Text to match", time_min="Earliest start, YYYY-MM-DD HH:MM:SS", time_max="Latest start, YYYY-MM-DD HH:MM:SS", **PAGE),
    tool("calendar_create_event", "Creates an event; returns its ID.", ["event_name", "participant_email", "event_start", "duration"], event_name="Name", participant_email="Participant email", event_start="Start, YYYY-MM-DD HH:MM:SS", duration="Duration in minutes"),
    tool("calendar_delete_event", "Deletes an event.", ["event_id"], event_id="8-digit ID of the event"),
    tool("calendar_update_event", "Updates one field of an event.", ["event_id", "field", "new_value"], event_id="8-digit ID of the event", field="One of: event_name, participant_email, event_start, duration", new_value="New value"),
    tool("analytics_get_visitor_information_by_id", "Returns a visitor's visits.", ["visitor_id"], visitor_id="4-digit ID of the visitor"),
    tool("analytics_create_plot", "Plots a metric over a date range; returns the file path.", ["time_min", "time_max", "value_to_plot", "plot_type"], time_min="Start date, YYYY-MM-DD", time_max="End date, YYYY-MM-DD", value_to_plot="One of: total_visits, session_duration_seconds, user_engaged, visits_direct, visits_referral, visits_search_engine, visits_social_media", plot_type="One of: bar, line, scatter, histogram"),
    tool("analytics_total_visits_count", "Visits per day.", [], time_min="Start date, YYYY-MM-DD", time_max="End date, YYYY-MM-DD"),
    tool("analytics_engaged_users_count", "Engaged users per day.", [], time_min="Start date, YYYY-MM-DD", time_max="End date, YYYY-MM-DD"),
    tool("analytics_traffic_source_count", "Visits per day, from one traffic source if given.", [], time_min="Start date, YYYY-MM-DD", time_max="End date, YYYY-MM-DD", traffic_source="One of: direct, referral, search engine, social media"),
    tool("analytics_get_average_session_duration", "Average session duration in seconds per day.", [], time_min="Start date, YYYY-MM-DD", time_max="End date, YYYY-MM-DD"),
    tool("project_management_get_task_information_by_id", "Returns one field of a task.", ["task_id", "field"], task_id="8-digit ID of the task", field="One of: task_id, task_name, assigned_to_email, list_name, due_date, board"),
    tool("project_management_search_tasks", "Searches tasks by any of their fields.", [], task_name="Name", assigned_to_email="Assignee email", list_name="List", due_date="Due date, YYYY-MM-DD", board="Board"),
    tool("project_management_create_task", "Creates a task; returns its ID.", ["task_name", "assigned_to_email", "list_name", "due_date", "board"], task_name="Name", assigned_to_email="Assignee email", list_name="One of: Backlog, In Progress, In Review, Completed", due_date="Due date, YYYY-MM-DD", board="One of: Back end, Front end, Design"),
    tool("project_management_delete_task", "Deletes a task.", ["task_id"], task_id="8-digit ID of the task"),
    tool("project_management_update_task", "Updates one field of a task.", ["task_id", "field", "new_value"], task_id="8-digit ID of the task", field="One of: task_name, assigned_to_email, list_name, due_date, board", new_value="New value"),
    tool("customer_relationship_manager_search_customers", "Searches customers by any of their fields.", [], customer_name="Name", customer_email="Email", product_interest="Product interest", status="Status", assigned_to_email="Account owner email", last_contact_date_min="Earliest last contact, YYYY-MM-DD", last_contact_date_max="Latest last contact, YYYY-MM-DD", follow_up_by_min="Earliest follow-up, YYYY-MM-DD", follow_up_by_max="Latest follow-up, YYYY-MM-DD", **PAGE),
    tool("customer_relationship_manager_update_customer", "Updates one field of a customer.", ["customer_id", "field", "new_value"], customer_id="8-digit ID of the customer", field="A customer field, e.g. status, product_interest, notes", new_value="New value"),
    tool("customer_relationship_manager_add_customer", "Adds a customer; returns the ID.", ["customer_name", "assigned_to_email", "status"], customer_name="Name", assigned_to_email="Account owner email", status="One of: Qualified, Won, Lost, Lead, Proposal", customer_email="Email", customer_phone="Phone", last_contact_date="YYYY-MM-DD HH:MM:SS", product_interest="One of: Software, Hardware, Services, Consulting, Training", notes="Notes", follow_up_by="YYYY-MM-DD HH:MM:SS"),
    tool("customer_relationship_manager_delete_customer", "Deletes a customer.", ["customer_id"], customer_id="8-digit ID of the customer"),
]


def call(name, **arguments):
    return {"name": name, "arguments": json.dumps(arguments)}


examples = [
    ("Reply to my email to hana about 'Fix login timeout' with 'Thanks, I will review it today.'", [call("email_reply_email", email_id="00000003", body="Thanks, I will review it today.")], "email"),
    ("Schedule a 30 minute 'roadmap review' with hana on 2023-12-04 at 10am.", [call("calendar_create_event", event_name="roadmap review", participant_email="hana.sato@larkspur.io", event_start="2023-12-04 10:00:00", duration="30")], "calendar"),
    ("Move the task 'Write API rate limiter' to In Review.", [call("project_management_update_task", task_id="00000006", field="list_name", new_value="In Review")], "project_management"),
    ("Mark Zoe Patel as Won in the CRM.", [call("customer_relationship_manager_update_customer", customer_id="00000003", field="status", new_value="Won")], "customer_relationship_manager"),
    ("Make a bar chart of total visits from 2023-11-01 to 2023-11-15.", [call("analytics_create_plot", time_min="2023-11-01", time_max="2023-11-15", value_to_plot="total_visits", plot_type="bar")], "analytics"),
]
with open(HERE / "example.jsonl", "w") as out:
    for i, (query, truth, category) in enumerate(examples):
        row = {"id": i, "responses_create_params": {"input": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": query}], "tools": schemas, "parallel_tool_calls": False, "temperature": 1}, "ground_truth": truth, "category": f"workplace_assistant_{category}", "environment_name": "workplace_assistant"}
        out.write(json.dumps(row) + "\n")
