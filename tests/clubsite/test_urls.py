from django.contrib.sessions.models import Session


def test_api_docs_are_served_under_api(client):
    response = client.get("/api/docs")

    assert response.status_code == 200


def test_openapi_schema_is_served_under_api(client):
    response = client.get("/api/openapi.json")

    assert response.status_code == 200
    assert response.json()["info"]["title"] == "Clubsite API"


def test_admin_speaks_french(client):
    response = client.get("/admin/login/")

    assert response.status_code == 200
    assert response.headers["Content-Language"] == "fr"
    assert "Connexion" in response.text


def test_sessions_are_stored_in_the_database(client, alice):
    client.force_login(alice)

    assert Session.objects.count() == 1
