# kozyr: a static binary in an empty image.
#   docker build -t kozyr .
#   docker run -d -e TELEGRAM_BOT_TOKEN=... -v kozyr-data:/data kozyr

# Build stage: a static, reproducible binary (no cgo, no local paths), plus the few files the
# empty runtime image needs: CA certificates for HTTPS to the Bot API and a non-root user.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download && go mod verify
COPY . .
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags="-s -w" -o /out/kozyr ./cmd/kozyr
RUN mkdir -p /out/etc /out/data \
 && echo 'kozyr:x:10001:10001:kozyr:/data:/sbin/nologin' > /out/etc/passwd \
 && echo 'kozyr:x:10001:' > /out/etc/group

# Runtime stage: nothing but the binary, the certificates and the user.
FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/etc/passwd /out/etc/group /etc/
COPY --from=build --chown=10001:10001 /out/data /data
COPY --from=build /out/kozyr /kozyr
ENV KOZYR_DB=/data/kozyr.db
VOLUME /data
WORKDIR /data
USER 10001:10001
ENTRYPOINT ["/kozyr"]
