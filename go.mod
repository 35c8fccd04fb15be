module github.com/kozyr-bot/kozyr

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/go-telegram/bot v1.19.0
	github.com/nicksnyder/go-i18n/v2 v2.7.0
	github.com/rs/zerolog v1.35.1
	go.etcd.io/bbolt v1.5.0
	golang.org/x/text v0.44.0
)

require (
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	golang.org/x/sys v0.45.0 // indirect
)
