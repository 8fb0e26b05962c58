// Package client holds the two small pieces every Go frontend of the referee needs next to
// the generated stubs in referee.local/clients/go/referee/v1: the seat token on a call, and
// the machine-readable reason of a refusal.
package client

import (
	"context"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// WithToken returns a context whose calls carry the seat token as
// `authorization: Bearer <token>`; the referee acts as that seat.
func WithToken(ctx context.Context, token string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
}

// Reason returns the google.rpc.ErrorInfo reason of a refused call (e.g. "NOT_YOUR_TURN"),
// or "" when err is not a gRPC status or carries no ErrorInfo. The status code says what
// kind of failure it was; the reason says which rule refused the call.
func Reason(err error) string {
	refusal, ok := status.FromError(err)
	if !ok {
		return ""
	}
	for _, detail := range refusal.Details() {
		if info, ok := detail.(*errdetails.ErrorInfo); ok {
			return info.GetReason()
		}
	}
	return ""
}
