"""The Azure SDK for Python (azure-servicebus) against sbemu-server, as an application would use it.

Run by .ci/languages, which starts the server jar and passes:
  SBEMU_CONNECTION_STRING  Endpoint=sb://127.0.0.1:<amqp port>;SharedAccessKeyName=...;UseDevelopmentEmulator=true;
  SBEMU_HTTP               http://127.0.0.1:<http port>   (management REST API, /health, /__admin/)
  SBEMU_TLS_CERTIFICATE    the server's self-signed certificate in PEM (its TLS port's, served on every port)
Entities come from ../Config.json. Each step prints "PASS <step>" or "FAIL <step>: <reason>".
"""
import json
import os
import re
import sys
import traceback
import urllib.parse
import urllib.request
from datetime import datetime, timedelta

from azure.core.pipeline.transport import RequestsTransport
from azure.servicebus import (ServiceBusClient, ServiceBusMessage, ServiceBusReceiveMode, ServiceBusSubQueue,
                               TransportType)
from azure.servicebus.exceptions import ServiceBusAuthenticationError, ServiceBusQuotaExceededError
from azure.servicebus.management import ServiceBusAdministrationClient

CONNECTION_STRING = os.environ["SBEMU_CONNECTION_STRING"]
HTTP = os.environ["SBEMU_HTTP"]
TLS_CERTIFICATE = os.environ["SBEMU_TLS_CERTIFICATE"]
WAIT = 10  # seconds a receive may wait


def control(method, path, body=None):
    """The server's control API: move its clock, read it."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{HTTP}/__admin/{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def body_of(message):
    return b"".join(message.body).decode()


def send_receive_complete(client):
    with client.get_queue_sender("basic") as sender:
        sender.send_messages(ServiceBusMessage("hello", message_id="py-1", application_properties={"lang": "py"}))
    with client.get_queue_receiver("basic", max_wait_time=WAIT) as receiver:
        [message] = receiver.receive_messages(max_message_count=1, max_wait_time=WAIT)
        assert body_of(message) == "hello"
        assert message.application_properties[b"lang"] == b"py"
        receiver.complete_message(message)
        assert receiver.peek_messages(max_message_count=1) == []


def abandon_and_dead_letter(client):
    with client.get_queue_sender("settle") as sender:
        sender.send_messages(ServiceBusMessage("try me", message_id="py-2"))
    with client.get_queue_receiver("settle") as receiver:
        [message] = receiver.receive_messages(max_message_count=1, max_wait_time=WAIT)
        receiver.abandon_message(message)
        [message] = receiver.receive_messages(max_message_count=1, max_wait_time=WAIT)
        assert message.delivery_count == 1, message.delivery_count
        receiver.dead_letter_message(message, reason="Invalid", error_description="bad order")
    with client.get_queue_receiver("settle", sub_queue=ServiceBusSubQueue.DEAD_LETTER) as dlq:
        [dead] = dlq.receive_messages(max_message_count=1, max_wait_time=WAIT)
        assert dead.message_id == "py-2"
        assert dead.dead_letter_reason == "Invalid"
        dlq.complete_message(dead)


def scheduled_message(client):
    now = datetime.fromisoformat(control("GET", "clock")["now"].replace("Z", "+00:00"))
    with client.get_queue_sender("scheduled") as sender:
        [sequence_number] = sender.schedule_messages(ServiceBusMessage("later"), now + timedelta(minutes=30))
        assert sequence_number > 0
    with client.get_queue_receiver("scheduled") as receiver:
        [peeked] = receiver.peek_messages(max_message_count=1)
        assert peeked.scheduled_enqueue_time_utc is not None
        control("POST", "clock/advance", {"duration": "PT31M"})
        [message] = receiver.receive_messages(max_message_count=1, max_wait_time=WAIT)
        assert body_of(message) == "later"
        receiver.complete_message(message)


def session_with_state(client):
    with client.get_queue_sender("sessions") as sender:
        sender.send_messages([ServiceBusMessage("one", session_id="cart-7"),
                              ServiceBusMessage("two", session_id="cart-7")])
    with client.get_queue_receiver("sessions", session_id="cart-7") as receiver:
        receiver.session.set_state("checkout")
        assert receiver.session.get_state() == b"checkout"
        bodies = []
        while len(bodies) < 2:
            messages = receiver.receive_messages(max_message_count=2 - len(bodies), max_wait_time=WAIT)
            assert messages, "session messages arrive"
            for message in messages:
                bodies.append(body_of(message))
                receiver.complete_message(message)
        assert bodies == ["one", "two"], bodies


def topic_with_sql_filter(client):
    with client.get_topic_sender("orders") as sender:
        sender.send_messages([
            ServiceBusMessage("red x3", application_properties={"color": "red", "quantity": 3}),
            ServiceBusMessage("blue x5", application_properties={"color": "blue", "quantity": 5}),
            ServiceBusMessage("red x1", application_properties={"color": "red", "quantity": 1}),
        ])
    with client.get_subscription_receiver("orders", "red",
                                          receive_mode=ServiceBusReceiveMode.RECEIVE_AND_DELETE) as red:
        got = red.receive_messages(max_message_count=10, max_wait_time=2)
        assert [body_of(m) for m in got] == ["red x3"], [body_of(m) for m in got]
    with client.get_subscription_receiver("orders", "all",
                                          receive_mode=ServiceBusReceiveMode.RECEIVE_AND_DELETE) as everything:
        count = 0
        while count < 3:
            batch = everything.receive_messages(max_message_count=3 - count, max_wait_time=WAIT)
            assert batch, "the unfiltered subscription gets every message"
            count += len(batch)


def ttl_to_dead_letter_queue(client):
    with client.get_queue_sender("expiring") as sender:
        sender.send_messages(ServiceBusMessage("perishable", message_id="py-ttl", time_to_live=timedelta(minutes=10)))
    control("POST", "clock/advance", {"duration": "PT11M"})
    with client.get_queue_receiver("expiring", sub_queue=ServiceBusSubQueue.DEAD_LETTER,
                                   receive_mode=ServiceBusReceiveMode.RECEIVE_AND_DELETE) as dlq:
        [expired] = dlq.receive_messages(max_message_count=1, max_wait_time=WAIT)
        assert expired.message_id == "py-ttl"
        assert expired.dead_letter_reason == "TTLExpiredException", expired.dead_letter_reason


class EmulatorHttp(RequestsTransport):
    """The administration client calls https:// on the connection string's host and port; the server speaks plain
    HTTP there (and on its HTTP port): this transport changes the scheme."""

    def send(self, request, **kwargs):
        request.url = request.url.replace("https://", "http://", 1)
        return super().send(request, **kwargs)


def administration(client):
    admin = ServiceBusAdministrationClient.from_connection_string(CONNECTION_STRING,
                                                                  transport=EmulatorHttp())
    with admin:
        admin.create_queue("created-by-python", max_delivery_count=3)
        with client.get_queue_sender("created-by-python") as sender:
            sender.send_messages([ServiceBusMessage("a"), ServiceBusMessage("b")])
        counts = admin.get_queue_runtime_properties("created-by-python")
        assert counts.active_message_count == 2, counts.active_message_count
        assert admin.get_queue("created-by-python").max_delivery_count == 3


def own_namespace(client):
    """A CI job's own namespace (spec NS-5): created through the control API, used with the connection string it
    answers (its key name chooses it, NS-2), deleted at the end; nothing crosses to the default namespace."""
    request = urllib.request.Request(f"{HTTP}/__admin/namespaces", method="POST",
                                     data=json.dumps({"name": "py-own", "clock": "frozen",
                                                       "startAt": "2030-01-01T00:00:00Z"}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201, response.status
        own = json.load(response)["connectionString"]
    assert "SharedAccessKeyName=py-own/RootManageSharedAccessKey;" in own, own
    admin = ServiceBusAdministrationClient.from_connection_string(own, transport=EmulatorHttp())
    admin.create_queue("basic")  # the default namespace has a "basic" too
    with ServiceBusClient.from_connection_string(own) as own_client:
        with own_client.get_queue_sender("basic") as sender:
            sender.send_messages(ServiceBusMessage("only in py-own", message_id="py-own-1"))
        with own_client.get_queue_receiver("basic", max_wait_time=WAIT) as receiver:
            [message] = receiver.receive_messages(max_message_count=1, max_wait_time=WAIT)
            assert body_of(message) == "only in py-own"
            assert message.sequence_number == 1, message.sequence_number
            receiver.complete_message(message)
    before = datetime.fromisoformat(control("GET", "namespaces/py-own/clock")["now"].replace("Z", "+00:00"))
    control("POST", "namespaces/py-own/clock/advance", {"duration": "PT2H"})
    after = datetime.fromisoformat(control("GET", "namespaces/py-own/clock")["now"].replace("Z", "+00:00"))
    assert after - before == timedelta(hours=2), after - before
    with client.get_queue_receiver("basic") as theirs:
        assert [m for m in theirs.peek_messages(max_message_count=10) if m.message_id == "py-own-1"] == []
    with urllib.request.urlopen(urllib.request.Request(f"{HTTP}/__admin/namespaces/py-own", method="DELETE"),
                                timeout=10) as response:
        assert response.status == 200, response.status


def portless_connection_string(client):
    """The guide's administration set-up for Microsoft's connection string, which has no port
    (docs/guide/http-and-control.md): as written there, the port being the server's HTTP port (5300 in the guide)."""
    port = urllib.parse.urlsplit(HTTP).port
    microsofts = re.sub(r"^Endpoint=sb://[^;]*;", "Endpoint=sb://localhost;", CONNECTION_STRING)

    # --- as in the guide ---
    class EmulatorHttp(RequestsTransport):
        def send(self, request, **kwargs):
            request.url = re.sub(r"^https://([^/:]+)/", rf"http://\1:{port}/", request.url)
            request.url = request.url.replace("https://", "http://", 1)
            return super().send(request, **kwargs)

    admin = ServiceBusAdministrationClient.from_connection_string(microsofts, transport=EmulatorHttp())
    # ---
    with admin:
        admin.create_queue("created-portless-python")
        assert admin.get_queue("created-portless-python").name == "created-portless-python"
        admin.delete_queue("created-portless-python")


def create_namespace(body):
    request = urllib.request.Request(f"{HTTP}/__admin/namespaces", method="POST", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201, response.status
        return json.load(response)["connectionString"]


def two_namespaces(client):
    """Two namespaces on one server (spec NS-1, NS-3): queues of one name, clocks moved differently, a fault scripted
    in one, a key of each; nothing crosses between them."""
    start = "2030-01-01T00:00:00Z"
    cs_a = create_namespace({"name": "py-a", "clock": "frozen", "startAt": start, "key": "key-of-py-a"})
    cs_b = create_namespace({"name": "py-b", "clock": "frozen", "startAt": start, "key": "key-of-py-b"})
    for cs in (cs_a, cs_b):
        with ServiceBusAdministrationClient.from_connection_string(cs, transport=EmulatorHttp()) as admin:
            admin.create_queue("orders")
    control("POST", "namespaces/py-a/clock/advance", {"duration": "PT1H"})
    control("POST", "namespaces/py-b/clock/advance", {"duration": "PT3H"})
    assert control("GET", "namespaces/py-a/clock")["now"] == "2030-01-01T01:00:00Z"
    assert control("GET", "namespaces/py-b/clock")["now"] == "2030-01-01T03:00:00Z"
    for cs, body in ((cs_a, "for a"), (cs_b, "for b")):
        with ServiceBusClient.from_connection_string(cs) as own, own.get_queue_sender("orders") as sender:
            sender.send_messages(ServiceBusMessage(body))
    for cs, body, hour in ((cs_a, "for a", 1), (cs_b, "for b", 3)):
        with ServiceBusClient.from_connection_string(cs) as own, \
                own.get_queue_receiver("orders", max_wait_time=WAIT) as receiver:
            got = receiver.receive_messages(max_message_count=10, max_wait_time=WAIT)
            assert [body_of(m) for m in got] == [body], [body_of(m) for m in got]
            assert got[0].sequence_number == 1
            assert got[0].enqueued_time_utc.replace(tzinfo=None) == datetime(2030, 1, 1, hour), got[0].enqueued_time_utc
            receiver.complete_message(got[0])
    # a fault scripted on py-a's "orders" acts there only
    request = urllib.request.Request(f"{HTTP}/__admin/namespaces/py-a/faults", method="POST",
                                     data=json.dumps({"entity": "orders", "action": "failNext", "count": 1,
                                                      "operation": "SEND", "failure": "QUOTA_EXCEEDED"}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201, response.status
    with ServiceBusClient.from_connection_string(cs_b) as own, own.get_queue_sender("orders") as sender:
        sender.send_messages(ServiceBusMessage("unhurt"))
    with ServiceBusClient.from_connection_string(cs_a) as own, own.get_queue_sender("orders") as sender:
        try:
            sender.send_messages(ServiceBusMessage("hurt"))
            raise AssertionError("the scripted fault did not fail the send")
        except ServiceBusQuotaExceededError:
            pass
    assert control("GET", "namespaces/py-b/faults")["faults"] == []
    # each namespace's key is its own: py-a's key name with py-b's key is refused
    crossed = cs_a.replace("key-of-py-a", "key-of-py-b")
    with ServiceBusClient.from_connection_string(crossed, retry_total=0) as own:
        try:
            with own.get_queue_sender("orders") as sender:  # the sender's link opens here, with the token
                sender.send_messages(ServiceBusMessage("crossed"))
            raise AssertionError("a key of another namespace was accepted")
        except ServiceBusAuthenticationError:
            pass
    for name in ("py-a", "py-b"):
        with urllib.request.urlopen(urllib.request.Request(f"{HTTP}/__admin/namespaces/{name}", method="DELETE"),
                                    timeout=10) as response:
            assert response.status == 200, response.status


def web_sockets(client):
    """AMQP over WebSockets (spec AMQP-26). For WebSockets the SDK drops the connection string's port: it dials
    ws://127.0.0.1/$servicebus/websocket, port 80 (TLS off with UseDevelopmentEmulator=true, so ws:// and not wss://).
    custom_endpoint_address names the port: ws://<host:port>/$servicebus/websocket, plain, no certificate to trust.
    Without UseDevelopmentEmulator it dials wss://, trusting connection_verify's PEM (not SSL_CERT_FILE: without
    connection_verify the SDK passes certifi's bundle)."""
    endpoint = re.search(r"Endpoint=(sb://[^;/]+)", CONNECTION_STRING).group(1)  # sb://127.0.0.1:<amqp port>
    over_wss = CONNECTION_STRING.replace("UseDevelopmentEmulator=true;", "")
    assert over_wss != CONNECTION_STRING
    for connection_string, tls, body in ((CONNECTION_STRING, {}, "over ws"),
                                         (over_wss, {"connection_verify": TLS_CERTIFICATE}, "over wss")):
        with ServiceBusClient.from_connection_string(connection_string, transport_type=TransportType.AmqpOverWebsocket,
                                                     custom_endpoint_address=endpoint, **tls) as over_ws:
            with over_ws.get_queue_sender("basic") as sender:
                sender.send_messages(ServiceBusMessage(body))
            with over_ws.get_queue_receiver("basic", max_wait_time=WAIT) as receiver:
                [message] = receiver.receive_messages(max_message_count=1, max_wait_time=WAIT)
                assert body_of(message) == body, body_of(message)
                receiver.complete_message(message)


STEPS = [send_receive_complete, abandon_and_dead_letter, scheduled_message, session_with_state,
         topic_with_sql_filter, ttl_to_dead_letter_queue, administration, own_namespace, portless_connection_string,
         two_namespaces, web_sockets]


def main():
    failed = 0
    with ServiceBusClient.from_connection_string(CONNECTION_STRING) as client:
        for step in STEPS:
            try:
                step(client)
                print(f"PASS {step.__name__}", flush=True)
            except Exception as e:  # noqa: BLE001 - every step reports, the next one still runs
                failed += 1
                print(f"FAIL {step.__name__}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
                      flush=True)
                traceback.print_exc()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
