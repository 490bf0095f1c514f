/* SPDX-License-Identifier: MIT */
/* main.c - PLACEHOLDER entry point until the CLI lands. */
int
main(void)
{
    return 0;
}
