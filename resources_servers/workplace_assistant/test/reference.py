"""Our reference of the original workplace_assistant's reward, in Python: replay both call lists
on fresh copies of data/company.json with the original's state-changing tools (the read-only
tools cannot change the outcome), then compare the end states as the original's data frames
compare. Reads {"cases": [{"predicted": [...], "ground_truth": [...] | str}]} on stdin; prints
the rewards."""
import inspect
import json
import re
import sys
from datetime import datetime
from pathlib import Path

DATA = json.loads((Path(__file__).parent.parent / "data" / "company.json").read_text())
NOW = "2023-11-30 23:59:00"


def stamp(value):
    """The date forms the tools accept (what pandas reads for the inputs we generate)."""
    if not isinstance(value, str) or not re.fullmatch(r"\s*\d{4}-\d{1,2}-\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2})?)?\s*", value):
        raise ValueError(value)
    text = value.strip().replace("T", " ")
    for form in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            return datetime.strptime(text, form)
        except ValueError:
            pass
    raise ValueError(value)


class Frame:
    """Rows with pandas index labels."""

    def __init__(self, columns, records):
        self.columns = columns
        self.rows = [(i, {c: (r.get(c) if r.get(c) not in ("", None) else None) for c in columns}) for i, r in enumerate(records)]

    def ids(self, column):
        return [values[column] for _, values in self.rows]

    def next_id(self, column):
        return int(max(self.ids(column))) + 1

    def append(self, values, label=None):
        self.rows.append((label if label is not None else 0, {c: values.get(c) for c in self.columns}))
        if label is None:
            self.rows = [(i, v) for i, (_, v) in enumerate(self.rows)]

    def drop(self, column, value):
        self.rows = [(l, v) for l, v in self.rows if not (v[column] == value and type(v[column]) is type(value))]

    def assign(self, column, value, field, new):
        for _, v in self.rows:
            if v[column] == value and type(v[column]) is type(value):
                v[field] = new


class Company:
    def __init__(self):
        self.emails = Frame(["email_id", "inbox/outbox", "sender/recipient", "subject", "sent_datetime", "body"], DATA["emails"])
        self.calendar = Frame(["event_id", "event_name", "participant_email", "event_start", "duration"], DATA["calendar_events"])
        self.tasks = Frame(["task_id", "task_name", "assigned_to_email", "list_name", "due_date", "board"], DATA["project_tasks"])
        self.crm = Frame(["customer_id", "assigned_to_email", "customer_name", "customer_email", "customer_phone", "last_contact_date", "product_interest", "status", "follow_up_by", "notes"], DATA["customers"])
        self.plots = Frame(["file_path"], [])

    @staticmethod
    def _has(frame, column, value):
        return any(v == value and type(v) is type(value) for v in frame.ids(column))

    # email
    def email_send_email(self, recipient=None, subject=None, body=None):
        if not recipient or not subject or not body:
            return
        if "@" not in recipient or "." not in recipient:
            return
        new_id = str(self.emails.next_id("email_id")) if self.emails.rows else "1"
        self.emails.append({"email_id": new_id, "inbox/outbox": "outbox", "sender/recipient": recipient.lower(), "subject": subject, "sent_datetime": NOW, "body": body})

    def email_delete_email(self, email_id=None):
        if email_id and self._has(self.emails, "email_id", email_id):
            self.emails.drop("email_id", email_id)

    def _email(self, email_id):
        return next(v for _, v in self.emails.rows if v["email_id"] == email_id)

    def email_forward_email(self, email_id=None, recipient=None):
        if not email_id or not recipient or "@" not in recipient or "." not in recipient:
            return
        if self._has(self.emails, "email_id", email_id):
            email = self._email(email_id)
            self.email_send_email(recipient.lower(), f"FW: {email['subject']}", email["body"])

    def email_reply_email(self, email_id=None, body=None):
        if email_id and body and self._has(self.emails, "email_id", email_id):
            email = self._email(email_id)
            self.email_send_email(email["sender/recipient"], f"RE: {email['subject']}", body)

    # calendar
    @staticmethod
    def _minutes_ok(value):
        try:
            return int(value) > 0
        except (ValueError, TypeError):
            return False

    def calendar_create_event(self, event_name=None, participant_email=None, event_start=None, duration=None):
        if not (event_name and participant_email and event_start and duration):
            return
        try:
            stamp(event_start)
        except ValueError:
            return
        if not self._minutes_ok(duration):
            return
        new_id = str(self.calendar.next_id("event_id")).zfill(8)
        self.calendar.append({"event_id": new_id, "event_name": event_name, "participant_email": participant_email.lower(), "event_start": event_start, "duration": duration}, label=0)

    def calendar_delete_event(self, event_id=None):
        if isinstance(event_id, str) and re.fullmatch(r"\d{8}", event_id) and self._has(self.calendar, "event_id", event_id):
            self.calendar.drop("event_id", event_id)

    def calendar_update_event(self, event_id=None, field=None, new_value=None):
        if not (event_id and field and new_value) or not (isinstance(event_id, str) and re.fullmatch(r"\d{8}", event_id)):
            return
        if field not in ("event_name", "participant_email", "event_start", "duration"):
            return
        if field == "event_start":
            try:
                stamp(new_value)
            except ValueError:
                return
        if field == "duration" and not self._minutes_ok(new_value):
            return
        if self._has(self.calendar, "event_id", event_id):
            self.calendar.assign("event_id", event_id, field, new_value.lower() if field == "participant_email" else new_value)

    # analytics
    def analytics_create_plot(self, time_min=None, time_max=None, value_to_plot=None, plot_type=None):
        if time_min and time_max and value_to_plot in ("total_visits", "session_duration_seconds", "user_engaged", "visits_direct", "visits_referral", "visits_search_engine", "visits_social_media") and plot_type in ("bar", "line", "scatter", "histogram"):
            self.plots.append({"file_path": f"plots/{time_min}_{time_max}_{value_to_plot}_{plot_type}.png"}, label=len(self.plots.rows))

    # project management
    def _assignees(self):
        return [v.lower() for v in self.tasks.ids("assigned_to_email") if isinstance(v, str)]

    def project_management_create_task(self, task_name=None, assigned_to_email=None, list_name=None, due_date=None, board=None):
        if not all([task_name, assigned_to_email, list_name, due_date, board]):
            return
        email = assigned_to_email.lower()
        if email in self._assignees() and list_name in ("Backlog", "In Progress", "In Review", "Completed") and board in ("Back end", "Front end", "Design"):
            new_id = str(self.tasks.next_id("task_id")).zfill(8)
            self.tasks.append({"task_id": new_id, "task_name": task_name, "assigned_to_email": email, "list_name": list_name, "due_date": due_date, "board": board})

    def project_management_delete_task(self, task_id=None):
        if task_id and self._has(self.tasks, "task_id", task_id):
            self.tasks.drop("task_id", task_id)

    def project_management_update_task(self, task_id=None, field=None, new_value=None):
        if not (task_id and field and new_value):
            return
        if field == "assigned_to_email":
            new_value = new_value.lower()
            if new_value not in self._assignees():
                return
        if field == "board" and new_value not in ("Back end", "Front end", "Design"):
            return
        if field == "list_name" and new_value not in ("Backlog", "In Progress", "In Review", "Completed"):
            return
        if self._has(self.tasks, "task_id", task_id) and field in self.tasks.columns:
            self.tasks.assign("task_id", task_id, field, new_value)

    # customers
    def customer_relationship_manager_update_customer(self, customer_id=None, field=None, new_value=None):
        if not (customer_id and field and new_value):
            return
        if field == "status" and new_value not in ("Qualified", "Won", "Lost", "Lead", "Proposal"):
            return
        if field == "product_interest" and new_value not in ("Software", "Hardware", "Services", "Consulting", "Training"):
            return
        if field in ("customer_email", "assigned_to_email"):
            new_value = new_value.lower()
        if self._has(self.crm, "customer_id", customer_id) and field in self.crm.columns:
            self.crm.assign("customer_id", customer_id, field, new_value)

    def customer_relationship_manager_add_customer(self, customer_name=None, assigned_to_email=None, status=None, customer_email=None, customer_phone=None, last_contact_date=None, product_interest=None, notes="", follow_up_by=None):
        if not all([customer_name, assigned_to_email, status]):
            return
        new_id = str(self.crm.next_id("customer_id")).zfill(8)
        self.crm.append({"customer_id": new_id, "customer_name": customer_name, "customer_email": customer_email.lower() if customer_email else customer_email, "customer_phone": customer_phone, "last_contact_date": last_contact_date, "product_interest": product_interest, "status": status, "assigned_to_email": assigned_to_email.lower(), "notes": notes, "follow_up_by": follow_up_by})

    def customer_relationship_manager_delete_customer(self, customer_id=None):
        if customer_id and self._has(self.crm, "customer_id", customer_id):
            self.crm.drop("customer_id", customer_id)


READ_ONLY = {"company_directory_find_email_address": ["name"], "email_get_email_information_by_id": ["email_id", "field"], "email_search_emails": ["query", "date_min", "date_max", "page", "page_size"], "calendar_get_event_information_by_id": ["event_id", "field"], "calendar_search_events": ["query", "time_min", "time_max", "page", "page_size"], "analytics_get_visitor_information_by_id": ["visitor_id"], "analytics_total_visits_count": ["time_min", "time_max"], "analytics_engaged_users_count": ["time_min", "time_max"], "analytics_traffic_source_count": ["time_min", "time_max", "traffic_source"], "analytics_get_average_session_duration": ["time_min", "time_max"], "project_management_get_task_information_by_id": ["task_id", "field"], "project_management_search_tasks": ["task_name", "assigned_to_email", "list_name", "due_date", "board"], "customer_relationship_manager_search_customers": []}


def replay(actions):
    company = Company()
    for action in actions:
        try:
            name, args = action["name"], json.loads(action["arguments"])
            if name in READ_ONLY:
                continue  # cannot change the state
            method = getattr(company, name) if not name.startswith("_") and name in Company.__dict__ else None
            inspect.signature(method).bind(**args)
            method(**args)
        except Exception:
            continue
    return company


def comparable(frame):
    def cell(column, value):
        if column in ("status", "list_name", "board"):
            return value
        return value.lower() if isinstance(value, str) else None

    return [(label, [cell(c, values[c]) for c in frame.columns]) for label, values in frame.rows]


def reward(case):
    a = replay(case["predicted"])
    b = replay(case["ground_truth"] if isinstance(case["ground_truth"], list) else [])
    return 1.0 if all(comparable(getattr(a, k)) == comparable(getattr(b, k)) for k in ("calendar", "emails", "plots", "tasks", "crm")) else 0.0


json.dump([reward(c) for c in json.load(sys.stdin)["cases"]], sys.stdout)
