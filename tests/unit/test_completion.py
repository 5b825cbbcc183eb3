"""``occli complete``: the generated bash script and ``--cloud-names``."""

import yaml


def test_script_completes_cloud_names_after_os_cloud(app_run):
    code, out, err = app_run("complete")
    assert code == 0, err
    assert "if [[ ${opt} == --os-cloud ]] ; then" in out
    assert '"${COMP_WORDS[0]}" complete --cloud-names 2>/dev/null' in out
    assert out.rstrip().endswith("complete -F _occli occli")
    with_value = next(line for line in out.splitlines() if "global_opts_with_value=" in line)
    assert " --os-cloud " in with_value and " --debug " not in with_value
    assert "  cmds_server_list='" in out  # cliff's command data is still there


def test_script_for_another_name(app_run):
    code, out, _ = app_run("complete", "--name", "my-occli")
    assert code == 0
    assert out.rstrip().endswith("complete -F _my_occli my-occli")


def test_shell_none_prints_the_data_only(app_run):
    code, out, _ = app_run("complete", "--shell", "none")
    assert code == 0
    assert out.startswith("  cmds='") and "_get_comp_words_by_ref" not in out


def test_cloud_names_are_read_without_a_request(app_run, tmp_path, monkeypatch, requests_mock):
    path = tmp_path / "clouds.yaml"
    path.write_text(yaml.safe_dump({"clouds": {"zeta": {}, "alpha": {"auth": {}}}}))
    local = tmp_path / "lc"
    local.mkdir()
    (local / "clouds.yaml").write_text(yaml.safe_dump({"clouds": {"local": {}}}))
    monkeypatch.setenv("OS_CLIENT_CONFIG_FILE", str(path))
    monkeypatch.setenv("OCCLI_LOCALCLOUD_DIR", str(local))
    code, out, err = app_run("complete", "--cloud-names")
    assert (code, out) == (0, "alpha\nlocal\nzeta\n"), err
    assert requests_mock.request_history == []
