// The Azure SDK for Go (azservicebus) against sbemu-server, as an application would use it.
// Run by .ci/languages, which starts the server jar and passes:
//
//	SBEMU_CONNECTION_STRING  Endpoint=sb://127.0.0.1:<amqp port>;SharedAccessKeyName=...;UseDevelopmentEmulator=true;
//	SBEMU_HTTP               http://127.0.0.1:<http port>   (management REST API, /health, /__admin/)
//	SSL_CERT_FILE            the server's TLS certificate (--tls-certificate), which Go's TLS then trusts
//
// Entities come from ../Config.json. Each step prints "PASS <step>" or "FAIL <step>: <reason>".
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus/admin"
	"github.com/coder/websocket"
)

var (
	connectionString = os.Getenv("SBEMU_CONNECTION_STRING")
	httpBase         = os.Getenv("SBEMU_HTTP")
)

const wait = 10 * time.Second

// control calls the server's control API: move its clock, read it.
func control(method, path string, body any) (map[string]any, error) {
	var payload []byte
	if body != nil {
		payload, _ = json.Marshal(body)
	}
	req, err := http.NewRequest(method, httpBase+"/__admin/"+path, bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("%s /__admin/%s: %d", method, path, resp.StatusCode)
	}
	var out map[string]any
	return out, json.NewDecoder(resp.Body).Decode(&out)
}

// receive waits up to d for up to n messages.
func receive(r interface {
	ReceiveMessages(context.Context, int, *azservicebus.ReceiveMessagesOptions) ([]*azservicebus.ReceivedMessage, error)
}, n int, d time.Duration) ([]*azservicebus.ReceivedMessage, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	messages, err := r.ReceiveMessages(ctx, n, nil)
	if errors.Is(err, context.DeadlineExceeded) {
		return messages, nil
	}
	return messages, err
}

func check(ok bool, format string, args ...any) error {
	if !ok {
		return fmt.Errorf(format, args...)
	}
	return nil
}

func sendReceiveComplete(ctx context.Context, client *azservicebus.Client) error {
	sender, err := client.NewSender("basic", nil)
	if err != nil {
		return err
	}
	defer sender.Close(ctx)
	if err := sender.SendMessage(ctx, &azservicebus.Message{Body: []byte("hello"), MessageID: to.Ptr("go-1"),
		ApplicationProperties: map[string]any{"lang": "go"}}, nil); err != nil {
		return err
	}
	receiver, err := client.NewReceiverForQueue("basic", nil)
	if err != nil {
		return err
	}
	defer receiver.Close(ctx)
	messages, err := receive(receiver, 1, wait)
	if err != nil {
		return err
	}
	if err := check(len(messages) == 1 && string(messages[0].Body) == "hello", "received %v", messages); err != nil {
		return err
	}
	if err := check(messages[0].ApplicationProperties["lang"] == "go", "properties %v",
		messages[0].ApplicationProperties); err != nil {
		return err
	}
	if err := receiver.CompleteMessage(ctx, messages[0], nil); err != nil {
		return err
	}
	peeked, err := receiver.PeekMessages(ctx, 1, nil)
	if err != nil {
		return err
	}
	return check(len(peeked) == 0, "the queue still holds %d", len(peeked))
}

func abandonAndDeadLetter(ctx context.Context, client *azservicebus.Client) error {
	sender, err := client.NewSender("settle", nil)
	if err != nil {
		return err
	}
	defer sender.Close(ctx)
	if err := sender.SendMessage(ctx, &azservicebus.Message{Body: []byte("try me"), MessageID: to.Ptr("go-2")}, nil); err != nil {
		return err
	}
	receiver, err := client.NewReceiverForQueue("settle", nil)
	if err != nil {
		return err
	}
	defer receiver.Close(ctx)
	messages, err := receive(receiver, 1, wait)
	if err != nil || len(messages) != 1 {
		return fmt.Errorf("first receive: %v %v", messages, err)
	}
	if err := receiver.AbandonMessage(ctx, messages[0], nil); err != nil {
		return err
	}
	messages, err = receive(receiver, 1, wait)
	if err != nil || len(messages) != 1 {
		return fmt.Errorf("second receive: %v %v", messages, err)
	}
	if err := check(messages[0].DeliveryCount == 2, "delivery count %d", messages[0].DeliveryCount); err != nil {
		return err
	}
	if err := receiver.DeadLetterMessage(ctx, messages[0], &azservicebus.DeadLetterOptions{
		Reason: to.Ptr("Invalid"), ErrorDescription: to.Ptr("bad order")}); err != nil {
		return err
	}
	dlq, err := client.NewReceiverForQueue("settle", &azservicebus.ReceiverOptions{SubQueue: azservicebus.SubQueueDeadLetter})
	if err != nil {
		return err
	}
	defer dlq.Close(ctx)
	dead, err := receive(dlq, 1, wait)
	if err != nil || len(dead) != 1 {
		return fmt.Errorf("dead-letter receive: %v %v", dead, err)
	}
	if err := check(dead[0].MessageID == "go-2" && *dead[0].DeadLetterReason == "Invalid", "dead-lettered %v",
		dead[0]); err != nil {
		return err
	}
	return dlq.CompleteMessage(ctx, dead[0], nil)
}

func scheduledMessage(ctx context.Context, client *azservicebus.Client) error {
	clock, err := control("GET", "clock", nil)
	if err != nil {
		return err
	}
	now, err := time.Parse(time.RFC3339Nano, clock["now"].(string))
	if err != nil {
		return err
	}
	sender, err := client.NewSender("scheduled", nil)
	if err != nil {
		return err
	}
	defer sender.Close(ctx)
	sequenceNumbers, err := sender.ScheduleMessages(ctx, []*azservicebus.Message{{Body: []byte("later")}},
		now.Add(30*time.Minute), nil)
	if err != nil || len(sequenceNumbers) != 1 {
		return fmt.Errorf("schedule: %v %v", sequenceNumbers, err)
	}
	receiver, err := client.NewReceiverForQueue("scheduled", nil)
	if err != nil {
		return err
	}
	defer receiver.Close(ctx)
	peeked, err := receiver.PeekMessages(ctx, 1, nil)
	if err != nil || len(peeked) != 1 || peeked[0].State != azservicebus.MessageStateScheduled {
		return fmt.Errorf("peek: %v %v", peeked, err)
	}
	if _, err := control("POST", "clock/advance", map[string]string{"duration": "PT31M"}); err != nil {
		return err
	}
	messages, err := receive(receiver, 1, wait)
	if err != nil || len(messages) != 1 || string(messages[0].Body) != "later" {
		return fmt.Errorf("receive: %v %v", messages, err)
	}
	return receiver.CompleteMessage(ctx, messages[0], nil)
}

func sessionWithState(ctx context.Context, client *azservicebus.Client) error {
	sender, err := client.NewSender("sessions", nil)
	if err != nil {
		return err
	}
	defer sender.Close(ctx)
	for _, body := range []string{"one", "two"} {
		if err := sender.SendMessage(ctx, &azservicebus.Message{Body: []byte(body), SessionID: to.Ptr("cart-7")}, nil); err != nil {
			return err
		}
	}
	session, err := client.AcceptSessionForQueue(ctx, "sessions", "cart-7", nil)
	if err != nil {
		return err
	}
	defer session.Close(ctx)
	if err := session.SetSessionState(ctx, []byte("checkout"), nil); err != nil {
		return err
	}
	state, err := session.GetSessionState(ctx, nil)
	if err != nil || string(state) != "checkout" {
		return fmt.Errorf("session state %q %v", state, err)
	}
	var bodies []string
	for len(bodies) < 2 {
		messages, err := receive(session, 2-len(bodies), wait)
		if err != nil || len(messages) == 0 {
			return fmt.Errorf("session receive after %v: %v", bodies, err)
		}
		for _, m := range messages {
			bodies = append(bodies, string(m.Body))
			if err := session.CompleteMessage(ctx, m, nil); err != nil {
				return err
			}
		}
	}
	return check(reflect.DeepEqual(bodies, []string{"one", "two"}), "bodies %v", bodies)
}

func topicWithSqlFilter(ctx context.Context, client *azservicebus.Client) error {
	sender, err := client.NewSender("orders", nil)
	if err != nil {
		return err
	}
	defer sender.Close(ctx)
	for _, m := range []struct {
		body     string
		color    string
		quantity int
	}{{"red x3", "red", 3}, {"blue x5", "blue", 5}, {"red x1", "red", 1}} {
		if err := sender.SendMessage(ctx, &azservicebus.Message{Body: []byte(m.body),
			ApplicationProperties: map[string]any{"color": m.color, "quantity": m.quantity}}, nil); err != nil {
			return err
		}
	}
	deleting := &azservicebus.ReceiverOptions{ReceiveMode: azservicebus.ReceiveModeReceiveAndDelete}
	red, err := client.NewReceiverForSubscription("orders", "red", deleting)
	if err != nil {
		return err
	}
	defer red.Close(ctx)
	var got []string
	for {
		messages, err := receive(red, 10, 2*time.Second)
		if err != nil {
			return err
		}
		if len(messages) == 0 {
			break
		}
		for _, m := range messages {
			got = append(got, string(m.Body))
		}
	}
	if err := check(reflect.DeepEqual(got, []string{"red x3"}), "the red subscription got %v", got); err != nil {
		return err
	}
	all, err := client.NewReceiverForSubscription("orders", "all", deleting)
	if err != nil {
		return err
	}
	defer all.Close(ctx)
	count := 0
	for count < 3 {
		messages, err := receive(all, 3-count, wait)
		if err != nil || len(messages) == 0 {
			return fmt.Errorf("the unfiltered subscription got %d: %v", count, err)
		}
		count += len(messages)
	}
	return nil
}

func ttlToDeadLetterQueue(ctx context.Context, client *azservicebus.Client) error {
	sender, err := client.NewSender("expiring", nil)
	if err != nil {
		return err
	}
	defer sender.Close(ctx)
	if err := sender.SendMessage(ctx, &azservicebus.Message{Body: []byte("perishable"), MessageID: to.Ptr("go-ttl"),
		TimeToLive: to.Ptr(10 * time.Minute)}, nil); err != nil {
		return err
	}
	if _, err := control("POST", "clock/advance", map[string]string{"duration": "PT11M"}); err != nil {
		return err
	}
	dlq, err := client.NewReceiverForQueue("expiring", &azservicebus.ReceiverOptions{
		SubQueue: azservicebus.SubQueueDeadLetter, ReceiveMode: azservicebus.ReceiveModeReceiveAndDelete})
	if err != nil {
		return err
	}
	defer dlq.Close(ctx)
	expired, err := receive(dlq, 1, wait)
	if err != nil || len(expired) != 1 {
		return fmt.Errorf("dead-letter receive: %v %v", expired, err)
	}
	return check(expired[0].MessageID == "go-ttl" && *expired[0].DeadLetterReason == "TTLExpiredException",
		"expired %v reason %v", expired[0].MessageID, expired[0].DeadLetterReason)
}

// plainHTTP: the administration client calls https:// on the connection string's host and port; the server
// speaks plain HTTP there (and on its HTTP port): this policy changes the scheme.
type plainHTTP struct{}

func (plainHTTP) Do(req *policy.Request) (*http.Response, error) {
	req.Raw().URL.Scheme = "http"
	return req.Next()
}

func administration(ctx context.Context, client *azservicebus.Client) error {
	adminClient, err := admin.NewClientFromConnectionString(connectionString, &admin.ClientOptions{
		ClientOptions: azcore.ClientOptions{PerCallPolicies: []policy.Policy{plainHTTP{}}}})
	if err != nil {
		return err
	}
	if _, err := adminClient.CreateQueue(ctx, "created-by-go", &admin.CreateQueueOptions{
		Properties: &admin.QueueProperties{MaxDeliveryCount: to.Ptr(int32(3))}}); err != nil {
		return err
	}
	sender, err := client.NewSender("created-by-go", nil)
	if err != nil {
		return err
	}
	defer sender.Close(ctx)
	for _, body := range []string{"a", "b"} {
		if err := sender.SendMessage(ctx, &azservicebus.Message{Body: []byte(body)}, nil); err != nil {
			return err
		}
	}
	counts, err := adminClient.GetQueueRuntimeProperties(ctx, "created-by-go", nil)
	if err != nil {
		return err
	}
	if err := check(counts.ActiveMessageCount == 2, "active messages %d", counts.ActiveMessageCount); err != nil {
		return err
	}
	queue, err := adminClient.GetQueue(ctx, "created-by-go", nil)
	if err != nil {
		return err
	}
	return check(*queue.MaxDeliveryCount == 3, "max delivery count %d", *queue.MaxDeliveryCount)
}

// ownNamespace: a CI job's own namespace (spec NS-5), created through the control API and used with the
// connection string it answers (its key name chooses it, NS-2), then deleted; nothing crosses to the default one.
func ownNamespace(ctx context.Context, client *azservicebus.Client) error {
	payload, _ := json.Marshal(map[string]any{"name": "go-own", "clock": "frozen", "startAt": "2030-01-01T00:00:00Z"})
	resp, err := http.Post(httpBase+"/__admin/namespaces", "application/json", bytes.NewReader(payload))
	if err != nil {
		return err
	}
	var created struct {
		ConnectionString string `json:"connectionString"`
	}
	err = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if err != nil {
		return err
	}
	if err := check(resp.StatusCode == 201, "create: %d", resp.StatusCode); err != nil {
		return err
	}
	own := created.ConnectionString
	adminClient, err := admin.NewClientFromConnectionString(own, &admin.ClientOptions{
		ClientOptions: azcore.ClientOptions{PerCallPolicies: []policy.Policy{plainHTTP{}}}})
	if err != nil {
		return err
	}
	// the default namespace has a "basic" too
	if _, err := adminClient.CreateQueue(ctx, "basic", nil); err != nil {
		return err
	}
	ownClient, err := azservicebus.NewClientFromConnectionString(own, nil)
	if err != nil {
		return err
	}
	defer ownClient.Close(ctx)
	sender, err := ownClient.NewSender("basic", nil)
	if err != nil {
		return err
	}
	defer sender.Close(ctx)
	if err := sender.SendMessage(ctx, &azservicebus.Message{Body: []byte("only in go-own"), MessageID: to.Ptr("go-own-1")}, nil); err != nil {
		return err
	}
	receiver, err := ownClient.NewReceiverForQueue("basic", nil)
	if err != nil {
		return err
	}
	defer receiver.Close(ctx)
	messages, err := receive(receiver, 1, wait)
	if err != nil {
		return err
	}
	if err := check(len(messages) == 1 && string(messages[0].Body) == "only in go-own" && *messages[0].SequenceNumber == 1,
		"own namespace's message: %v", messages); err != nil {
		return err
	}
	if err := receiver.CompleteMessage(ctx, messages[0], nil); err != nil {
		return err
	}
	if _, err := control("POST", "namespaces/go-own/clock/advance", map[string]any{"duration": "PT2H"}); err != nil {
		return err
	}
	clock, err := control("GET", "namespaces/go-own/clock", nil)
	if err != nil {
		return err
	}
	if err := check(clock["now"] == "2030-01-01T02:00:00Z", "go-own's clock %v", clock["now"]); err != nil {
		return err
	}
	theirs, err := client.NewReceiverForQueue("basic", nil)
	if err != nil {
		return err
	}
	defer theirs.Close(ctx)
	peeked, err := theirs.PeekMessages(ctx, 10, nil)
	if err != nil {
		return err
	}
	for _, m := range peeked {
		if m.MessageID == "go-own-1" {
			return errors.New("the default namespace holds go-own's message")
		}
	}
	req, _ := http.NewRequest("DELETE", httpBase+"/__admin/namespaces/go-own", nil)
	deleted, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	deleted.Body.Close()
	return check(deleted.StatusCode == 200, "delete: %d", deleted.StatusCode)
}

// portlessConnectionString: the guide's administration set-up for Microsoft's connection string, which has no
// port (docs/guide/http-and-control.md): as written there, the port being the server's HTTP port (5300 in the guide).
func portlessConnectionString(ctx context.Context, client *azservicebus.Client) error {
	base, err := url.Parse(httpBase)
	if err != nil {
		return err
	}
	port := base.Port()
	microsofts := regexp.MustCompile(`^Endpoint=sb://[^;]*;`).ReplaceAllString(connectionString, "Endpoint=sb://localhost;")
	adminClient, err := admin.NewClientFromConnectionString(microsofts, &admin.ClientOptions{
		ClientOptions: azcore.ClientOptions{PerCallPolicies: []policy.Policy{emulatorHTTP{port: port}}}})
	if err != nil {
		return err
	}
	if _, err := adminClient.CreateQueue(ctx, "created-portless-go", nil); err != nil {
		return err
	}
	queue, err := adminClient.GetQueue(ctx, "created-portless-go", nil)
	if err != nil {
		return err
	}
	if err := check(queue != nil && queue.QueueName == "created-portless-go", "queue %v", queue); err != nil {
		return err
	}
	_, err = adminClient.DeleteQueue(ctx, "created-portless-go", nil)
	return err
}

// --- as in the guide ---
type emulatorHTTP struct{ port string }

func (p emulatorHTTP) Do(req *policy.Request) (*http.Response, error) {
	req.Raw().URL.Scheme = "http"
	if req.Raw().URL.Port() == "" {
		req.Raw().URL.Host += ":" + p.port
	}
	return req.Next()
}

// ---

func createNamespace(body map[string]any) (string, error) {
	payload, _ := json.Marshal(body)
	resp, err := http.Post(httpBase+"/__admin/namespaces", "application/json", bytes.NewReader(payload))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 201 {
		return "", fmt.Errorf("POST /__admin/namespaces: %d", resp.StatusCode)
	}
	var created struct {
		ConnectionString string `json:"connectionString"`
	}
	return created.ConnectionString, json.NewDecoder(resp.Body).Decode(&created)
}

func sendOne(ctx context.Context, cs, body string) error {
	c, err := azservicebus.NewClientFromConnectionString(cs, &azservicebus.ClientOptions{
		RetryOptions: azservicebus.RetryOptions{MaxRetries: -1}})
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	sender, err := c.NewSender("orders", nil)
	if err != nil {
		return err
	}
	defer sender.Close(ctx)
	return sender.SendMessage(ctx, &azservicebus.Message{Body: []byte(body)}, nil)
}

// twoNamespaces: two namespaces on one server (spec NS-1, NS-3): queues of one name, clocks moved differently, a
// fault scripted in one, a key of each; nothing crosses between them.
func twoNamespaces(ctx context.Context, client *azservicebus.Client) error {
	start := "2030-01-01T00:00:00Z"
	csA, err := createNamespace(map[string]any{"name": "go-a", "clock": "frozen", "startAt": start, "key": "key-of-go-a"})
	if err != nil {
		return err
	}
	csB, err := createNamespace(map[string]any{"name": "go-b", "clock": "frozen", "startAt": start, "key": "key-of-go-b"})
	if err != nil {
		return err
	}
	for _, cs := range []string{csA, csB} {
		adminClient, err := admin.NewClientFromConnectionString(cs, &admin.ClientOptions{
			ClientOptions: azcore.ClientOptions{PerCallPolicies: []policy.Policy{plainHTTP{}}}})
		if err != nil {
			return err
		}
		if _, err := adminClient.CreateQueue(ctx, "orders", nil); err != nil {
			return err
		}
	}
	for name, duration := range map[string]string{"go-a": "PT1H", "go-b": "PT3H"} {
		if _, err := control("POST", "namespaces/"+name+"/clock/advance", map[string]any{"duration": duration}); err != nil {
			return err
		}
	}
	for _, cs := range []string{csA, csB} {
		body := map[string]string{csA: "for a", csB: "for b"}[cs]
		if err := sendOne(ctx, cs, body); err != nil {
			return err
		}
	}
	for _, one := range []struct {
		cs, body string
		hour     int
	}{{csA, "for a", 1}, {csB, "for b", 3}} {
		c, err := azservicebus.NewClientFromConnectionString(one.cs, nil)
		if err != nil {
			return err
		}
		receiver, err := c.NewReceiverForQueue("orders", nil)
		if err != nil {
			return err
		}
		messages, err := receive(receiver, 10, wait)
		if err != nil {
			return err
		}
		if err := check(len(messages) == 1 && string(messages[0].Body) == one.body && *messages[0].SequenceNumber == 1 &&
			messages[0].EnqueuedTime.Equal(time.Date(2030, 1, 1, one.hour, 0, 0, 0, time.UTC)),
			"%s: %v", one.body, messages); err != nil {
			return err
		}
		if err := receiver.CompleteMessage(ctx, messages[0], nil); err != nil {
			return err
		}
		receiver.Close(ctx)
		c.Close(ctx)
	}
	// a fault scripted on go-a's "orders" acts there only
	payload, _ := json.Marshal(map[string]any{"entity": "orders", "action": "failNext", "count": 1,
		"operation": "SEND", "failure": "QUOTA_EXCEEDED"})
	resp, err := http.Post(httpBase+"/__admin/namespaces/go-a/faults", "application/json", bytes.NewReader(payload))
	if err != nil {
		return err
	}
	resp.Body.Close()
	if err := check(resp.StatusCode == 201, "fault: %d", resp.StatusCode); err != nil {
		return err
	}
	if err := sendOne(ctx, csB, "unhurt"); err != nil {
		return err
	}
	if err := check(sendOne(ctx, csA, "hurt") != nil, "the scripted fault did not fail go-a's send"); err != nil {
		return err
	}
	// each namespace's key is its own: go-a's key name with go-b's key is refused
	var sbErr *azservicebus.Error
	crossed := sendOne(ctx, strings.Replace(csA, "key-of-go-a", "key-of-go-b", 1), "crossed")
	if err := check(errors.As(crossed, &sbErr) && sbErr.Code == azservicebus.CodeUnauthorizedAccess,
		"a key of another namespace: %v", crossed); err != nil {
		return err
	}
	for _, name := range []string{"go-a", "go-b"} {
		req, _ := http.NewRequest("DELETE", httpBase+"/__admin/namespaces/"+name, nil)
		deleted, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		deleted.Body.Close()
		if err := check(deleted.StatusCode == 200, "delete %s: %d", name, deleted.StatusCode); err != nil {
			return err
		}
	}
	return nil
}

// webSockets sends and receives over AMQP over WebSockets: the SDK dials
// wss://<the connection string's host:port>/$servicebus/websocket through NewWebSocketConn, as its own live test
// TestNewClientWithWebsockets does (coder/websocket, subprotocol "amqp"), with TLS verified against SSL_CERT_FILE.
func webSockets(ctx context.Context, _ *azservicebus.Client) error {
	client, err := azservicebus.NewClientFromConnectionString(connectionString, &azservicebus.ClientOptions{
		NewWebSocketConn: func(ctx context.Context, args azservicebus.NewWebSocketConnArgs) (net.Conn, error) {
			conn, _, err := websocket.Dial(ctx, args.Host, &websocket.DialOptions{Subprotocols: []string{"amqp"}})
			if err != nil {
				return nil, err
			}
			return websocket.NetConn(context.Background(), conn, websocket.MessageBinary), nil
		},
	})
	if err != nil {
		return err
	}
	defer client.Close(ctx)
	return sendReceiveComplete(ctx, client) // the first step's exchange, over wss
}

func main() {
	client, err := azservicebus.NewClientFromConnectionString(connectionString, nil)
	if err != nil {
		fmt.Println("FAIL client:", err)
		os.Exit(1)
	}
	steps := []struct {
		name string
		run  func(context.Context, *azservicebus.Client) error
	}{
		{"sendReceiveComplete", sendReceiveComplete},
		{"abandonAndDeadLetter", abandonAndDeadLetter},
		{"scheduledMessage", scheduledMessage},
		{"sessionWithState", sessionWithState},
		{"topicWithSqlFilter", topicWithSqlFilter},
		{"ttlToDeadLetterQueue", ttlToDeadLetterQueue},
		{"administration", administration},
		{"ownNamespace", ownNamespace},
		{"portlessConnectionString", portlessConnectionString},
		{"twoNamespaces", twoNamespaces},
		{"webSockets", webSockets},
	}
	failed := 0
	for _, step := range steps {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		err := step.run(ctx, client)
		cancel()
		if err != nil {
			failed++
			fmt.Printf("FAIL %s: %v\n", step.name, err)
		} else {
			fmt.Printf("PASS %s\n", step.name)
		}
	}
	client.Close(context.Background())
	if failed > 0 {
		os.Exit(1)
	}
}
