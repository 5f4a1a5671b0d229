download
not-a-url
