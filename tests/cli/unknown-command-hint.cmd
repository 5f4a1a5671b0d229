infoo
x
