module referee.local/clients/go

go 1.19

// The versions Debian 12 ships (golang-google-grpc-dev 1.33.3, golang-google-protobuf-dev
// 1.28.1), which CI builds against; genproto is the oldest grpc 1.33.3 accepts (Debian's
// 0.0~git20200413 is older still, so module mode cannot select it).
require (
	google.golang.org/genproto v0.0.0-20200526211855-cb27e3aa2013
	google.golang.org/grpc v1.33.3
	google.golang.org/protobuf v1.28.1
)
