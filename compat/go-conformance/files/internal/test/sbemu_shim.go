// Added by sbemu's .ci/go-conformance (compat/go-conformance): points the live tests at sbemu-server.
// Not part of Microsoft's module.

package test

import (
	"net/http"
	"reflect"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// emulatorTransport sends the administration client's requests, which it addresses to https://<Endpoint host>/,
// over plain HTTP to the same host and port: sbemu-server serves its management REST API on its AMQP port too.
type emulatorTransport struct{}

func (emulatorTransport) Do(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme == "https" {
		req = req.Clone(req.Context())
		req.URL.Scheme = "http"
	}
	return http.DefaultTransport.RoundTrip(req)
}

// EmulatorOptions returns options (a new value when nil) whose azcore Transport, when the type has one (the
// administration client's ClientOptions) and it is unset, is emulatorTransport. Other option types are unchanged.
func EmulatorOptions[OptionsT any](options *OptionsT) *OptionsT {
	if options == nil {
		options = new(OptionsT)
	}
	v := reflect.ValueOf(options).Elem()
	if v.Kind() != reflect.Struct {
		return options
	}
	if f := v.FieldByName("Transport"); f.IsValid() && f.CanSet() && f.IsNil() &&
		f.Type() == reflect.TypeOf((*policy.Transporter)(nil)).Elem() {
		f.Set(reflect.ValueOf(policy.Transporter(emulatorTransport{})))
	}
	return options
}

// EmulatorClientOptions is EmulatorOptions for azcore.ClientOptions (the atom entity manager's).
func EmulatorClientOptions() *policy.ClientOptions {
	return EmulatorOptions[policy.ClientOptions](nil)
}
